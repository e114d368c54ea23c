// Colours and the one stylesheet, injected once per document (or shadow root) by render().
import type { Role } from './types';

export const ROLE_COLORS: Record<Role, { fill: string; stroke: string; text: string }> = {
  input: { fill: '#dbeafe', stroke: '#1d4ed8', text: '#1e3a8a' },
  param: { fill: '#f1f5f9', stroke: '#94a3b8', text: '#475569' },
  compute: { fill: '#e0e7ff', stroke: '#4338ca', text: '#1e1b4b' },
  observer: { fill: '#ccfbf1', stroke: '#0f766e', text: '#134e4a' },
  quantize: { fill: '#fce7f3', stroke: '#be185d', text: '#831843' },
  dequantize: { fill: '#dcfce7', stroke: '#15803d', text: '#14532d' },
  output: { fill: '#fee2e2', stroke: '#b91c1c', text: '#7f1d1d' },
};

/** Fill for an observer's sharing group (observers[].group): well separated pastel hues. */
export function groupFill(group: number): string {
  const hue = Math.round((group * 137.508 + 170) % 360);
  return `hsl(${hue}, 70%, 84%)`;
}

/** Stroke colour for a spec id (index in specs[]). */
export function specColor(index: number): string {
  const hue = Math.round((index * 97 + 20) % 360);
  return `hsl(${hue}, 70%, 38%)`;
}

export const INT_EDGE = '#7c3aed';
export const FLOAT_EDGE = '#94a3b8';

const CSS = `
.pt2e-lens{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;font-size:13px;color:#1e293b;background:#fff;border:1px solid #e2e8f0;border-radius:6px;padding:8px;box-sizing:border-box}
.pt2e-lens *{box-sizing:border-box}
.pt2e-lens .pl-title{font-size:15px;font-weight:600;margin:0 0 6px}
.pt2e-lens .pl-message{padding:14px;background:#fff7ed;border:1px solid #fdba74;border-radius:4px;color:#7c2d12}
.pt2e-lens .pl-empty{padding:14px;color:#64748b;font-style:italic}
.pt2e-lens .pl-tabs{display:flex;gap:2px;border-bottom:1px solid #cbd5e1;margin:4px 0 6px;flex-wrap:wrap}
.pt2e-lens .pl-tab{border:1px solid transparent;border-bottom:none;background:none;padding:4px 10px;cursor:pointer;font:inherit;color:#475569;border-radius:4px 4px 0 0}
.pt2e-lens .pl-tab[aria-selected="true"]{border-color:#cbd5e1;background:#f8fafc;color:#0f172a;font-weight:600;margin-bottom:-1px}
.pt2e-lens .pl-panes{display:flex;gap:8px;align-items:stretch}
.pt2e-lens .pl-pane{flex:1 1 0;min-width:0;display:flex;flex-direction:column;border:1px solid #e2e8f0;border-radius:4px}
.pt2e-lens .pl-pane-label{font-weight:600;padding:4px 8px;background:#f8fafc;border-bottom:1px solid #e2e8f0}
.pt2e-lens .pl-toolbar{display:flex;gap:6px;align-items:center;padding:4px 6px;border-bottom:1px solid #f1f5f9;flex-wrap:wrap}
.pt2e-lens .pl-toolbar input{font:inherit;padding:2px 6px;border:1px solid #cbd5e1;border-radius:3px;width:14em}
.pt2e-lens button.pl-btn{font:inherit;padding:2px 8px;border:1px solid #cbd5e1;border-radius:3px;background:#fff;cursor:pointer}
.pt2e-lens button.pl-btn:hover{background:#f1f5f9}
.pt2e-lens .pl-status{color:#64748b;font-size:12px}
.pt2e-lens .pl-results{display:flex;flex-wrap:wrap;gap:4px;padding:0 6px 4px}
.pt2e-lens .pl-result{font:inherit;font-size:12px;border:1px solid #e2e8f0;border-radius:3px;background:#f8fafc;cursor:pointer;padding:1px 5px}
.pt2e-lens .pl-canvas{position:relative;height:var(--pl-height,520px);overflow:hidden;background:#fcfcfd;cursor:grab}
.pt2e-lens .pl-canvas svg{width:100%;height:100%;display:block;user-select:none}
.pt2e-lens .pl-legend{display:flex;flex-wrap:wrap;gap:8px;padding:4px 6px;font-size:11px;color:#475569;border-top:1px solid #f1f5f9}
.pt2e-lens .pl-swatch{display:inline-block;width:10px;height:10px;border:1.5px solid;border-radius:2px;margin-right:3px;vertical-align:-1px}
.pt2e-lens .pl-findings{margin:0 0 6px;padding:0;list-style:none}
.pt2e-lens .pl-findings li{background:#fefce8;border-left:3px solid #ca8a04;padding:3px 8px;margin:2px 0}
.pt2e-lens .pl-details{border-top:1px solid #e2e8f0;padding:6px 8px;font-size:12px;max-height:260px;overflow:auto}
.pt2e-lens .pl-details:empty{display:none}
.pt2e-lens .pl-details h4{margin:2px 0 4px;font-size:13px}
.pt2e-lens .pl-details dl{display:grid;grid-template-columns:max-content 1fr;gap:1px 10px;margin:0 0 4px}
.pt2e-lens .pl-details dt{color:#64748b}
.pt2e-lens .pl-details dd{margin:0;font-family:ui-monospace,"DejaVu Sans Mono",monospace;word-break:break-all}
.pt2e-lens .pl-table-wrap{margin:4px 0 10px}
.pt2e-lens .pl-table-scroll{max-height:420px;overflow:auto;border:1px solid #e2e8f0}
.pt2e-lens table.pl-table{border-collapse:collapse;font-size:12px;width:100%}
.pt2e-lens table.pl-table th{position:sticky;top:0;background:#f1f5f9;text-align:left;padding:3px 6px;cursor:pointer;white-space:nowrap;border-bottom:1px solid #cbd5e1}
.pt2e-lens table.pl-table td{padding:2px 6px;border-bottom:1px solid #f1f5f9;font-family:ui-monospace,"DejaVu Sans Mono",monospace;white-space:nowrap}
.pt2e-lens table.pl-table td.pl-num{text-align:right}
.pt2e-lens table.pl-table tr:hover td{background:#f8fafc}
.pt2e-lens svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
.pt2e-lens .pl-node{cursor:pointer}
.pt2e-lens .pl-node rect.pl-box{stroke-width:1.5}
.pt2e-lens .pl-node text.pl-label{font-size:12px;font-weight:600}
.pt2e-lens .pl-node text.pl-sub{font-size:10px;fill:#475569}
.pt2e-lens .pl-node.pl-removed rect.pl-box{stroke-dasharray:5 3;opacity:.75;stroke:#dc2626;stroke-width:2}
.pt2e-lens .pl-node.pl-added rect.pl-box{stroke:#f59e0b;stroke-width:4;paint-order:stroke;filter:drop-shadow(0 0 3px #fbbf24)}
.pt2e-lens .pl-node.pl-match rect.pl-box{stroke:#f59e0b;stroke-width:3}
.pt2e-lens .pl-node.pl-counterpart rect.pl-box{stroke:#0284c7;stroke-width:3.5}
.pt2e-lens .pl-node.pl-selected rect.pl-box{stroke:#0f172a;stroke-width:3.5}
.pt2e-lens .pl-group rect.pl-gbox{fill:#f8fafc;stroke:#cbd5e1;stroke-width:1}
.pt2e-lens .pl-group.pl-collapsed rect.pl-gbox{fill:#f1f5f9;stroke:#64748b;stroke-width:1.5;cursor:pointer}
.pt2e-lens .pl-group.pl-collapsed.pl-counterpart rect.pl-gbox,.pt2e-lens .pl-group.pl-collapsed.pl-selected rect.pl-gbox{stroke:#0284c7;stroke-width:3}
.pt2e-lens .pl-group.pl-collapsed.pl-match rect.pl-gbox{stroke:#f59e0b;stroke-width:3}
.pt2e-lens .pl-group text.pl-glabel{font-size:11px;font-weight:600;fill:#334155;cursor:pointer}
.pt2e-lens .pl-group text.pl-gsub{font-size:10px;fill:#64748b}
.pt2e-lens .pl-edge{fill:none;stroke:${FLOAT_EDGE};stroke-width:1.2}
.pt2e-lens .pl-edge.pl-int{stroke:${INT_EDGE};stroke-width:2.6}
.pt2e-lens .pl-edge.pl-spec{stroke-width:2.2}
.pt2e-lens .pl-edge.pl-agg{stroke:#64748b;stroke-width:1.6}
.pt2e-lens .pl-shared{fill:none;stroke-dasharray:4 3;stroke-width:1.5}
.pt2e-lens .pl-stub{cursor:pointer}
.pt2e-lens .pl-heat-scale{display:inline-block;width:60px;height:9px;border-radius:2px;vertical-align:-1px}
.pt2e-lens .pl-stub-label{font-size:9px;fill:#64748b;font-style:italic}
.pt2e-lens .pl-edge-label{font-size:9px;fill:${INT_EDGE};font-weight:600}
.pt2e-lens .pl-note{font-size:11px;fill:#92400e;font-style:italic}
.pt2e-lens .pl-badge text{font-size:9px;font-weight:700;fill:#fff}
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
  style.textContent = CSS;
  holder.appendChild(style);
}
