// The one stylesheet, injected once per document (or shadow root) by render(). Every colour is a `--pl-*`
// custom property: the palette (palette.ts) in a light and a dark variant, and the surface colours taken
// from the host when it has them — `--pl-host-*` (set by the JupyterLab stylesheet from `--jp-*`), else
// VS Code's `--vscode-*`, else the palette. The dark variant applies in a dark JupyterLab or VS Code theme
// and, on pages of neither (static report, nbconvert), when the browser prefers a dark colour scheme.
import { BACKEND_CSS } from './backend';
import { markCss } from './marks';
import { DARK, LIGHT, type Theme } from './palette';
import { ROLES } from './types';

export const SPEC_COLORS = LIGHT.specs.length;
export const GROUP_COLORS = LIGHT.groups.length;

/** Fill for an observer's sharing group (observers[].group). */
export function groupFill(group: number): string {
  return `var(--pl-group-${((group % GROUP_COLORS) + GROUP_COLORS) % GROUP_COLORS})`;
}

/** Colour for a spec id (index in specs[]). */
export function specColor(index: number): string {
  return `var(--pl-spec-${((index % SPEC_COLORS) + SPEC_COLORS) % SPEC_COLORS})`;
}

export const INT_EDGE = 'var(--pl-int)';
export const FLOAT_EDGE = 'var(--pl-edge)';
export const AGG_EDGE = 'var(--pl-gstroke)';

/** The palette as custom properties (surface colours under `--pl-t-*`, resolved against the host below). */
export function themeVars(t: Theme): string {
  const v: Array<[string, string | number]> = [
    ['t-bg', t.bg],
    ['t-canvas', t.canvas],
    ['t-fg', t.fg],
    ['t-muted', t.muted],
    ['t-border', t.border],
    ['t-raised', t.raised],
    ['t-btn', t.btn],
    ['t-btn-hover', t.btnHover],
    ['sub', t.sub],
    ['edge', t.edge],
    ['int', t.int],
    ['removed', t.removed],
    ['added', t.added],
    ['match', t.match],
    ['selected', t.selected],
    ['gfill', t.groupFill],
    ['gstroke', t.groupStroke],
    ['warn', t.warn],
    ['warn-bg', t.warnBg],
    ['note-bg', t.noteBg],
    ['heat-l', `${t.heatL}%`],
    ['heat-0', t.heatFill[0]],
    ['heat-1', t.heatFill[1]],
    ['heat-2', t.heatFill[2]],
  ];
  for (const r of ROLES) {
    v.push([`${r}-fill`, t.roles[r].fill], [`${r}-stroke`, t.roles[r].stroke], [`${r}-text`, t.roles[r].text]);
  }
  t.groups.forEach((c, i) => {
    v.push([`group-${i}`, c]);
  });
  t.specs.forEach((c, i) => {
    v.push([`spec-${i}`, c]);
  });
  return v.map(([k, x]) => `--pl-${k}:${x}`).join(';');
}

const HOST = [
  // ours ← host-provided (JupyterLab stylesheet) ← VS Code ← palette
  ['bg', '--vscode-editor-background'],
  ['canvas', '--vscode-editor-background'],
  ['fg', '--vscode-editor-foreground'],
  ['muted', '--vscode-descriptionForeground'],
  ['border', '--vscode-editorWidget-border'],
  ['raised', '--vscode-editorWidget-background'],
  ['btn', '--vscode-button-secondaryBackground'],
  ['btn-hover', '--vscode-button-secondaryHoverBackground'],
]
  .map(([k, vs]) => `--pl-${k}:var(--pl-host-${k},var(${vs},var(--pl-t-${k})))`)
  .join(';');

const DARK_SCOPES = [
  'body[data-jp-theme-light="false"] .pt2e-lens',
  'body.vscode-dark .pt2e-lens',
  'body.vscode-high-contrast:not(.vscode-high-contrast-light) .pt2e-lens',
  '.pt2e-lens[data-pl-theme="dark"]',
].join(',');
// a page that says nothing about its theme follows the browser's colour scheme
const AUTO_DARK =
  'body:not([data-jp-theme-light]):not(.vscode-light):not(.vscode-high-contrast-light) .pt2e-lens:not([data-pl-theme="light"])';

const HEAT_DARK = DARK_SCOPES.split(',')
  .map((x) => `${x} .pl-node.pl-heated rect.pl-box`)
  .join(',');

const roleRules = ROLES.map(
  (r) =>
    `.pt2e-lens .pl-role-${r}>rect.pl-box{fill:var(--pl-${r}-fill);stroke:var(--pl-${r}-stroke)}.pt2e-lens .pl-role-${r}>text.pl-label{fill:var(--pl-${r}-text)}`,
).join('\n');

const CSS = `
.pt2e-lens{${themeVars(LIGHT)};${HOST};color-scheme:light}
${DARK_SCOPES}{${themeVars(DARK)};color-scheme:dark}
@media (prefers-color-scheme: dark){${AUTO_DARK}{${themeVars(DARK)};color-scheme:dark}}
.pt2e-lens .pl-node.pl-heated rect.pl-box{fill:var(--pl-hl)}
${HEAT_DARK}{fill:var(--pl-hd)}
@media (prefers-color-scheme: dark){${AUTO_DARK} .pl-node.pl-heated rect.pl-box{fill:var(--pl-hd)}}
.pt2e-lens{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","DejaVu Sans",sans-serif;font-size:13px;color:var(--pl-fg);background:var(--pl-bg);border:1px solid var(--pl-border);border-radius:6px;padding:8px;box-sizing:border-box}
.pt2e-lens *{box-sizing:border-box}
.pt2e-lens .pl-title{font-size:15px;font-weight:600;margin:0 0 6px}
.pt2e-lens .pl-message{padding:14px;background:var(--pl-warn-bg);border:1px solid var(--pl-warn);border-radius:4px;color:var(--pl-fg)}
.pt2e-lens .pl-empty{padding:14px;color:var(--pl-muted);font-style:italic}
.pt2e-lens .pl-tabs{display:flex;gap:2px;border-bottom:1px solid var(--pl-border);margin:4px 0 6px;flex-wrap:wrap}
.pt2e-lens .pl-tab{border:1px solid transparent;border-bottom:none;background:none;padding:4px 10px;cursor:pointer;font:inherit;color:var(--pl-muted);border-radius:4px 4px 0 0}
.pt2e-lens .pl-tab[aria-selected="true"]{border-color:var(--pl-border);background:var(--pl-raised);color:var(--pl-fg);font-weight:600;margin-bottom:-1px}
.pt2e-lens .pl-panes{display:grid;grid-auto-columns:minmax(0,1fr);grid-auto-flow:column;grid-template-rows:repeat(6,auto);column-gap:8px}
.pt2e-lens .pl-pane{min-width:0;display:grid;grid-template-columns:minmax(0,1fr);grid-row:span 6;grid-template-rows:subgrid;border:1px solid var(--pl-border);border-radius:4px}
.pt2e-lens .pl-panes:is(.pl-stacked,.pl-narrow){grid-auto-flow:row;grid-template-rows:none;row-gap:8px}
.pt2e-lens .pl-panes:is(.pl-stacked,.pl-narrow)>.pl-pane{grid-row:auto;grid-template-rows:none}
.pt2e-lens .pl-panes.pl-narrow .pl-canvas{height:max(320px,calc(var(--pl-height,520px)*.75))}
.pt2e-lens .pl-pane>.pl-graph{display:contents}
.pt2e-lens .pl-pane-label{font-weight:600;padding:4px 8px;background:var(--pl-raised);border-bottom:1px solid var(--pl-border)}
.pt2e-lens .pl-toolbar{display:flex;gap:6px;align-items:center;padding:4px 6px;border-bottom:1px solid var(--pl-border);flex-wrap:wrap}
.pt2e-lens .pl-toolbar .pl-map-slot{display:contents}
.pt2e-lens .pl-toolbar input{font:inherit;padding:2px 6px;border:1px solid var(--pl-border);border-radius:3px;width:14em;max-width:100%;background:var(--pl-bg);color:var(--pl-fg)}
.pt2e-lens .pl-toolbar input[type=checkbox]{width:auto;margin:0 2px 0 0;vertical-align:middle}
.pt2e-lens .pl-toolbar select.pl-choice{font:inherit;padding:1px 4px;border:1px solid var(--pl-border);border-radius:3px;background:var(--pl-bg);color:var(--pl-fg);max-width:100%}
.pt2e-lens .pl-toolbar label.pl-check{white-space:nowrap}
.pt2e-lens button.pl-btn{font:inherit;padding:2px 8px;border:1px solid var(--pl-border);border-radius:3px;background:var(--pl-btn);color:var(--pl-fg);cursor:pointer}
.pt2e-lens button.pl-btn:hover{background:var(--pl-btn-hover)}
.pt2e-lens .pl-status{color:var(--pl-muted);font-size:12px}
.pt2e-lens .pl-export{color:var(--pl-muted);font-size:12px;white-space:nowrap}
.pt2e-lens .pl-toolbar{container-type:inline-size}
@container (max-width:360px){.pt2e-lens .pl-export-label{display:none}}
.pt2e-lens .pl-btn-icon{display:none;width:14px;height:14px;vertical-align:-2px;fill:none;stroke:currentColor;stroke-width:1.4;stroke-linecap:round;stroke-linejoin:round}
.pt2e-lens .pl-status-foot{display:none}
@container (max-width:400px){.pt2e-lens .pl-graph-bar>input[type=search]{flex:1 1 2.5em;width:auto;min-width:2.5em;padding:2px 4px 2px 20px;background:var(--pl-bg) url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 14 14'%3E%3Cpath d='M6 2a4 4 0 1 1 0 8 4 4 0 0 1 0-8zM9 9l3.5 3.5' fill='none' stroke='%23888' stroke-width='1.5' stroke-linecap='round'/%3E%3C/svg%3E") no-repeat 4px 50%/13px}.pt2e-lens .pl-graph-bar>input[type=search]::placeholder{color:transparent}.pt2e-lens .pl-graph-bar>:not(:first-child),.pt2e-lens .pl-graph-bar>.pl-map-slot>*{margin-left:-3px}.pt2e-lens .pl-graph-bar .pl-export{font-size:0}.pt2e-lens .pl-graph-bar .pl-export .pl-btn+.pl-btn{margin-left:3px}.pt2e-lens .pl-graph-bar .pl-btn-icon{display:inline-block}.pt2e-lens .pl-graph-bar .pl-btn-label{display:none}.pt2e-lens .pl-graph-bar .pl-icon-btn{padding:3px 4px;line-height:1}.pt2e-lens .pl-graph-bar .pl-export .pl-btn{padding:2px 3px;font-size:11px}.pt2e-lens .pl-graph-bar>.pl-status{display:none}}
@container (max-width:412px){.pt2e-lens .pl-status-foot{display:block;padding:2px 6px;font-size:12px;color:var(--pl-muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}}
.pt2e-lens .pl-results{display:flex;flex-wrap:wrap;gap:4px;padding:0 6px 4px}
.pt2e-lens .pl-result[aria-current="true"]{border-color:var(--pl-match);font-weight:600}
.pt2e-lens .pl-result{font:inherit;font-size:12px;border:1px solid var(--pl-border);border-radius:3px;background:var(--pl-raised);color:var(--pl-fg);cursor:pointer;padding:1px 5px}
.pt2e-lens .pl-stage{position:relative;min-width:0}
.pt2e-lens .pl-canvas{position:relative;height:var(--pl-height,520px);overflow:hidden;background:var(--pl-canvas);cursor:grab}
.pt2e-lens .pl-canvas svg{width:100%;height:100%;display:block;user-select:none}
.pt2e-lens .pl-hint{position:absolute;left:50%;top:8px;transform:translateX(-50%);background:var(--pl-raised);color:var(--pl-fg);border:1px solid var(--pl-border);border-radius:4px;padding:3px 10px;font-size:12px;pointer-events:none;opacity:0;transition:opacity .2s}
.pt2e-lens .pl-hint.pl-show{opacity:.95}
.pt2e-lens button.pl-offscreen{position:absolute;top:4px;z-index:1;font-size:11px;padding:0 5px;opacity:.9;box-shadow:0 1px 3px rgba(0,0,0,.18)}
.pt2e-lens .pl-offscreen[hidden]{display:none}
.pt2e-lens .pl-offscreen-left{left:2px}
.pt2e-lens .pl-offscreen-right{right:2px}
.pt2e-lens .pl-offscreen-up{left:50%;transform:translateX(-50%)}
.pt2e-lens button.pl-offscreen-down{top:auto;bottom:4px;right:2px}
.pt2e-lens .pl-canvas.pl-active{outline:1px dashed var(--pl-muted);outline-offset:-2px}
.pt2e-lens .pl-canvas canvas.pl-raster{position:absolute;inset:0;width:100%;height:100%;display:block;outline:none}
.pt2e-lens .pl-canvas canvas.pl-raster:focus-visible{outline:2px solid var(--pl-match);outline-offset:-2px}
.pt2e-lens .pl-minimap{position:absolute;left:6px;bottom:6px;z-index:1;display:flex;align-items:flex-end;gap:2px;cursor:default}
.pt2e-lens .pl-minimap canvas.pl-minimap-map{width:168px;height:112px;background:var(--pl-bg);border:1px solid var(--pl-border);border-radius:4px;box-shadow:0 1px 4px rgba(0,0,0,.18);cursor:crosshair;touch-action:none}
.pt2e-lens .pl-minimap.pl-closed canvas.pl-minimap-map{display:none}
.pt2e-lens .pl-minimap .pl-minimap-toggle{font-size:11px;padding:0 5px;opacity:.9}
.pt2e-lens .pl-legend{display:flex;flex-wrap:wrap;gap:4px 10px;padding:4px 6px;font-size:12px;color:var(--pl-muted);border-top:1px solid var(--pl-border)}
.pt2e-lens .pl-legend.pl-legend-folded{row-gap:8px;height:calc(1.5em + 12px);box-sizing:border-box;overflow:hidden}
.pt2e-lens .pl-legend-toggle{font:inherit;flex:none;padding:0 6px;border:1px solid var(--pl-border);border-radius:3px;background:var(--pl-btn);color:var(--pl-fg);cursor:pointer}
.pt2e-lens .pl-legend-toggle:hover{background:var(--pl-btn-hover)}
.pt2e-lens .pl-legend-specfold{font:inherit;padding:0 6px;border:1px solid var(--pl-border);border-radius:3px;background:var(--pl-btn);color:var(--pl-fg);cursor:pointer}
.pt2e-lens .pl-legend-specfold:hover{background:var(--pl-btn-hover)}
.pt2e-lens .pl-legend-speclist{display:contents}
.pt2e-lens .pl-legend-speclist[hidden]{display:none}
.pt2e-lens .pl-swatch{display:inline-block;width:11px;height:11px;border:2px solid;border-radius:2px;margin-right:3px;vertical-align:-1px}
.pt2e-lens .pl-line{display:inline-block;width:18px;height:0;border-top:3px solid;margin-right:4px;vertical-align:3px}
.pt2e-lens .pl-findings{margin:0;padding:0 4px;min-width:0}
.pt2e-lens .pl-fgroup{background:var(--pl-warn-bg);border-left:3px solid var(--pl-warn);margin:2px 0;min-width:0}
.pt2e-lens .pl-fgroup>summary{display:flex;gap:8px;padding:2px 8px;cursor:pointer;white-space:nowrap}
.pt2e-lens .pl-fline{overflow:hidden;text-overflow:ellipsis;min-width:0}
.pt2e-lens .pl-fhint{color:var(--pl-muted);flex:none}
.pt2e-lens .pl-fentries{margin:0;padding:2px 8px 4px 22px;max-height:14em;overflow:auto}
.pt2e-lens .pl-fentries li{margin:1px 0;overflow-wrap:anywhere}
.pt2e-lens .pl-flink{font:inherit;font-size:12px;border:none;background:none;color:var(--pl-fg);text-decoration:underline;cursor:pointer;padding:0}
.pt2e-lens .pl-drawer{position:absolute;top:0;right:0;bottom:0;width:min(340px,33.3%);overflow:auto;background:var(--pl-bg);color:var(--pl-fg);border-left:1px solid var(--pl-border);box-shadow:-4px 0 10px rgba(0,0,0,.18);padding:6px 8px;font-size:12px;z-index:2;overflow-wrap:anywhere;word-break:normal;white-space:normal}
.pt2e-lens .pl-drawer[hidden]{display:none}
.pt2e-lens .pl-drawer-close{float:right;margin-left:6px}
.pt2e-lens .pl-details h4{margin:2px 0 4px;font-size:13px}
.pt2e-lens .pl-details dl{display:grid;grid-template-columns:fit-content(40%) minmax(0,1fr);gap:1px 10px;margin:0 0 4px}
.pt2e-lens .pl-details dt{color:var(--pl-muted);word-break:keep-all;overflow-wrap:break-word;min-width:6em}
.pt2e-lens .pl-details dd{margin:0;font-family:ui-monospace,"DejaVu Sans Mono",monospace}
.pt2e-lens .pl-why{margin:0 0 4px;padding-left:16px}
.pt2e-lens .pl-stage{container-type:inline-size}
@container (max-width:720px){.pt2e-lens .pl-drawer{--pl-drawer-across:1;left:0;right:0;top:auto;bottom:0;width:auto;max-height:50%;border-left:none;border-top:1px solid var(--pl-border);box-shadow:0 -4px 10px rgba(0,0,0,.18)}.pt2e-lens .pl-drawer[data-dock="top"]{border-top:none;border-bottom:1px solid var(--pl-border);box-shadow:0 4px 10px rgba(0,0,0,.18)}.pt2e-lens .pl-details dl{grid-template-columns:minmax(0,1fr)}.pt2e-lens .pl-details dd{padding-left:8px}}
.pt2e-lens .pl-table-wrap{margin:4px 0 10px}
.pt2e-lens .pl-table-scroll{max-height:420px;overflow:auto;border:1px solid var(--pl-border)}
.pt2e-lens .pl-table-frame{position:relative}
.pt2e-lens table.pl-table{border-collapse:collapse;font-size:12px;width:100%}
.pt2e-lens table.pl-table th{position:sticky;top:0;background:var(--pl-raised);color:var(--pl-fg);text-align:left;padding:3px 6px;cursor:pointer;white-space:nowrap;border-bottom:1px solid var(--pl-border)}
.pt2e-lens table.pl-table td{text-align:left;padding:2px 6px;border-bottom:1px solid var(--pl-border);font-family:ui-monospace,"DejaVu Sans Mono",monospace;vertical-align:top;max-width:28em;overflow-wrap:break-word}
.pt2e-lens table.pl-table td.pl-num{text-align:right;white-space:nowrap}
.pt2e-lens table.pl-table td.pl-pos{color:var(--pl-added);font-weight:600}
.pt2e-lens table.pl-table td.pl-neg{color:var(--pl-removed);font-weight:600}
.pt2e-lens table.pl-table tr:hover td{background:var(--pl-raised)}
.pt2e-lens .pl-table-stacked table.pl-table,.pt2e-lens .pl-table-stacked table.pl-table>tbody,.pt2e-lens .pl-table-stacked table.pl-table>tbody>tr{display:block}
.pt2e-lens .pl-table-stacked table.pl-table>thead>tr{display:flex;flex-wrap:wrap;gap:2px;position:sticky;top:0;background:var(--pl-raised);border-bottom:1px solid var(--pl-border)}
.pt2e-lens .pl-table-stacked table.pl-table th{position:static;border:1px solid var(--pl-border);border-radius:3px;padding:1px 5px;white-space:normal;overflow-wrap:anywhere}
.pt2e-lens .pl-table-stacked table.pl-table>tbody>tr{padding:3px 6px;border-bottom:2px solid var(--pl-border)}
.pt2e-lens .pl-table-stacked table.pl-table td{display:block;max-width:none;padding:0;border:none;text-align:left;white-space:normal;overflow-wrap:anywhere}
.pt2e-lens .pl-table-stacked table.pl-table td::before{content:attr(data-label) ": ";font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","DejaVu Sans",sans-serif;color:var(--pl-muted)}
.pt2e-lens .pl-table-stacked table.pl-table td:empty{display:none}
.pt2e-lens .pl-table-stage{font-size:12px;color:var(--pl-muted);margin:0 0 4px}
.pt2e-lens svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","DejaVu Sans",sans-serif}
.pt2e-lens .pl-node{cursor:pointer}
.pt2e-lens .pl-node rect.pl-box{stroke-width:1.5}
${roleRules}
.pt2e-lens .pl-node text.pl-label{font-size:12px;font-weight:600}
.pt2e-lens .pl-node text.pl-sub{font-size:10px;fill:var(--pl-sub)}
.pt2e-lens .pl-annotated-mark{stroke:var(--pl-selected);fill:var(--pl-selected)}
.pt2e-lens .pl-annotated-mark.pl-off{fill:var(--pl-canvas)}
.pt2e-lens .pl-group rect.pl-gbox{fill:none;stroke:var(--pl-border);stroke-width:1}
.pt2e-lens .pl-group.pl-collapsed rect.pl-gbox{fill:var(--pl-gfill);stroke:var(--pl-gstroke);stroke-width:1.5;cursor:pointer}
.pt2e-lens .pl-group.pl-collapsed.pl-all-fp32 rect.pl-gbox{stroke:var(--pl-warn);stroke-width:2}
${markCss()}
.pt2e-lens .pl-group text.pl-glabel{font-size:12px;font-weight:600;fill:var(--pl-fg);cursor:pointer}
.pt2e-lens .pl-group text.pl-gsub{font-size:10px;fill:var(--pl-muted)}
.pt2e-lens svg.pl-zoomed .pl-group text.pl-glabel{visibility:hidden}
.pt2e-lens .pl-zoom-labels{pointer-events:none}
.pt2e-lens .pl-zlabel rect{fill:var(--pl-canvas);stroke:var(--pl-border)}
.pt2e-lens .pl-zlabel.pl-zlabel-closed rect{fill:var(--pl-gfill);stroke:var(--pl-gstroke)}
.pt2e-lens .pl-zlabel text{font-weight:600;fill:var(--pl-fg)}
.pt2e-lens .pl-gbadge rect{fill:var(--pl-canvas);stroke-width:1.3}
.pt2e-lens .pl-gbadge text{font-size:10px;font-weight:700}
.pt2e-lens .pl-gchip rect{fill:var(--pl-canvas);stroke-width:1.3}
.pt2e-lens .pl-gchip text{font-size:9px;font-weight:700}
.pt2e-lens .pl-edge{fill:none;stroke:var(--pl-edge);stroke-width:1.3}
.pt2e-lens .pl-edge.pl-int{stroke:var(--pl-int);stroke-width:2.6}
.pt2e-lens .pl-edge.pl-spec{stroke-width:2.2}
.pt2e-lens .pl-edge.pl-agg{stroke:var(--pl-gstroke);stroke-width:1.6}
.pt2e-lens .pl-edge.pl-agg.pl-int{stroke:var(--pl-int);stroke-width:2.6}
.pt2e-lens .pl-shared{fill:none;stroke-dasharray:4 3;stroke-width:1.5}
.pt2e-lens .pl-stub{cursor:pointer}
.pt2e-lens .pl-heat-scale{display:inline-block;width:60px;height:9px;border-radius:2px;vertical-align:-1px;border:1px solid var(--pl-border)}
.pt2e-lens .pl-stub-label{font-size:10px;fill:var(--pl-muted);font-style:italic}
.pt2e-lens .pl-edge-label{font-size:10px;fill:var(--pl-int);font-weight:700}
.pt2e-lens .pl-callout rect{fill:var(--pl-note-bg);stroke:var(--pl-warn);stroke-width:1}
.pt2e-lens .pl-callout path{stroke:var(--pl-warn);stroke-width:1;fill:none}
.pt2e-lens .pl-callout text{font-size:11px;fill:var(--pl-fg)}
.pt2e-lens .pl-badge text{font-size:9px;font-weight:700;fill:var(--pl-canvas)}
`;

const STYLE_ID = 'pt2e-lens-style';

/** Inject the stylesheet once into the document or shadow root that holds `el`. */
export function injectStyles(el: Element): void {
  const root = el.getRootNode() as Document | ShadowRoot;
  const doc = el.ownerDocument;
  const SR = doc.defaultView?.ShadowRoot;
  const holder: ParentNode | null = SR && root instanceof SR ? root : doc.head;
  if (!holder) return;
  if ((holder as ParentNode).querySelector?.(`#${STYLE_ID}`)) return;
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  style.textContent = CSS + BACKEND_CSS;
  holder.appendChild(style);
}
