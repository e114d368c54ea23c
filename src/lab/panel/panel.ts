// The "PT2E" side panel, a view: it renders the LensModel (the active notebook's SessionLens) with
// src/core and sends the user's clicks to the model; it never talks to the kernel itself.
// All model text goes in through textContent (core's `h`), never innerHTML.
import { Widget } from '@lumino/widgets';
import { sameNodeIn } from '../../core/compare';
import { clear, h } from '../../core/dom';
import { resolveLocale, type Tr, translator } from '../../core/i18n';
import { type RenderHandle, render } from '../../core/index';
import { injectStyles } from '../../core/styles';
import type { GraphNode } from '../../core/types';
import { drawBar, styleWorkbench, type Typed } from '../../core/workbench-bar';
import { pickerSelect, stageTabs } from './head-line';
import type { LensModel } from './model';
import type { GroupRow } from './outline';
import type { ModelRow } from './protocol';
import type { Content, SessionLens } from './session';

const PANEL_CSS = `
.jp-Pt2eLensPanel{overflow:auto;padding:6px 8px;background:var(--jp-layout-color1);color:var(--jp-ui-font-color1);font-size:var(--jp-ui-font-size1)}
.jp-Pt2eLensPanel .pl-panel-status{margin:4px 0}
.jp-Pt2eLensPanel .pl-panel-status[data-status="error"]{color:#b91c1c}
.jp-Pt2eLensPanel .pl-panel-row{display:flex;gap:6px;align-items:center;margin:4px 0;flex-wrap:wrap}
.jp-Pt2eLensPanel select{max-width:100%;flex:1}
.jp-Pt2eLensPanel .pl-groups button{display:block;width:100%;text-align:left;margin:2px 0;font:inherit;cursor:pointer}
.jp-Pt2eLensPanel .pl-panel-error{color:#b91c1c;margin:4px 0}
.jp-Pt2eLensPanel button.pl-load{max-width:100%;white-space:normal;height:auto;line-height:1.3;padding:4px 8px}
.jp-Pt2eLensPanel .pl-panel-line{flex-wrap:nowrap;gap:4px;margin:0 0 4px;min-width:0}
.jp-Pt2eLensPanel .pl-panel-line select.pl-model-picker{flex:1 1 0;min-width:3em;width:0}
.jp-Pt2eLensPanel .pl-panel-line .pl-panel-stages{flex:none;flex-wrap:nowrap;margin:0;border-bottom:none;gap:1px}
.jp-Pt2eLensPanel .pl-panel-line .pl-tab{padding:2px 6px;border-radius:4px}
.jp-Pt2eLensPanel .pl-panel-line .pl-tab[aria-selected="true"]{border-bottom:1px solid var(--pl-border);margin-bottom:0}
.jp-Pt2eLensPanel .pl-panel-line select.pl-stage-menu{flex:none;width:3.2em;padding:0 2px}
.jp-Pt2eLensPanel .pl-panel-line .pl-current{flex:none;white-space:nowrap}
.jp-Pt2eLensPanel .pl-panel-line [hidden]{display:none}
.jp-Pt2eLensPanel .pt2e-lens.pl-panel-head,.jp-Pt2eLensPanel .pl-panel-view>.pt2e-lens{border:none;padding:0;background:transparent}
.jp-Pt2eLensPanel .pl-panel-view:not(.pl-panel-part)>.pt2e-lens>.pl-title{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
`;
const FOLLOW = '\u0000follow';

function statusText(t: Tr, lens: SessionLens): string {
  switch (lens.status) {
    case 'no-kernel':
      return lens.message?.(t) || t('ui.panel.no_kernel');
    case 'connecting':
      return t('ui.panel.connecting');
    case 'loading':
      return t('ui.panel.loading');
    case 'not-loaded':
      return `${lens.restarted ? t('ui.panel.restarted') : ''}${t('ui.panel.not_loaded')}`;
    case 'error':
      return lens.message?.(t) ?? '';
    case 'ready':
      return lens.models?.models.length ? '' : t('ui.panel.no_model');
  }
}

function modelText(t: Tr, r: ModelRow): string {
  return `${r.name} · ${r.type} · ${t('ui.panel.nodes', { n: r.node_count })} · ${r.stage}`;
}

function groupText(t: Tr, g: GroupRow): string {
  const facts = [t('ui.panel.nodes', { n: g.node_count })];
  if (g.annotations) facts.push(t('ui.panel.annotated', { n: g.annotations }));
  if (g.observers) facts.push(t('ui.panel.observer_nodes', { n: g.observers }));
  if (g.qdq) facts.push(`${g.qdq} q/dq`);
  return `${g.label} (${g.cls}) — ${facts.join(', ')}`;
}

export class LensPanel extends Widget {
  private head: HTMLElement;
  /** the current model's workbench controls, when it is a pl.workbench (the widget's own step bar) */
  private bench: HTMLElement;
  private body: HTMLElement;
  private readonly typed: Typed = {};
  private handle: RenderHandle | null = null;
  private drawn: Content | null | undefined = undefined;
  private drawnLens: SessionLens | null = null;
  /** re-fits the head's line to the panel's width (set by renderHead) */
  private fitLine: () => void = () => undefined;
  private resizes: ResizeObserver | null = null;

  /** the UI's words: the locale given (JupyterLab's language, see ./locale.ts), else the page's `<html lang>` */
  private readonly t: Tr;

  constructor(
    private readonly model: LensModel,
    locale?: string,
  ) {
    super();
    const lang = resolveLocale(locale ?? this.node.ownerDocument.documentElement.lang);
    this.t = translator(lang);
    // views drawn in the panel use it too, unless a view carries the locale it was made in
    this.node.setAttribute('lang', lang);
    this.id = 'pt2e-lens-panel';
    this.addClass('jp-Pt2eLensPanel');
    this.title.caption = this.t('ui.panel.caption');
    const doc = this.node.ownerDocument;
    if (!doc.getElementById('pt2e-lens-panel-css')) {
      const style = h(doc, 'style', { id: 'pt2e-lens-panel-css' }, PANEL_CSS);
      doc.head.appendChild(style);
    }
    this.head = h(doc, 'div', { class: 'pt2e-lens pl-panel-head' });
    this.bench = h(doc, 'div', { class: 'pt2e-lens pl-workbench pl-panel-bench' });
    this.body = h(doc, 'div', { class: 'pl-panel-body' });
    this.node.append(this.head, this.bench, this.body);
    injectStyles(this.head);
    styleWorkbench(this.bench);
    // a wider or narrower panel shows more or fewer stage tabs on the head's line
    const RO = doc.defaultView?.ResizeObserver;
    if (RO) {
      this.resizes = new RO(() => this.fitLine());
      this.resizes.observe(this.head);
    }
    model.changed.connect(this.refresh, this);
    this.refresh();
  }

  /** The words of the panel's own parts: the locale the kernel's model speaks when the user chose one there
   * (a course chapter's `course_setup("zh-TW")`: its views carry `locale`), else JupyterLab's (`this.t`). A
   * zh-TW chapter under an English JupyterLab no longer reads "newest: gm_post" above a zh-TW graph. */
  private words(lens: SessionLens | null): Tr {
    const content = lens?.content;
    const locale = content && content.kind !== 'groups' ? content.result.view?.locale : undefined;
    if (!locale) return this.t;
    if (locale !== this.spokenLocale) [this.spokenLocale, this.spoken] = [locale, translator(locale)];
    return this.spoken;
  }

  private spokenLocale: string | null = null;
  private spoken: Tr = translator();

  /** The lens of the active notebook (null when no notebook is open). */
  get current(): SessionLens | null {
    return this.model.lens;
  }

  private refresh(): void {
    const lens = this.model.lens;
    if (lens !== this.drawnLens) this.drawn = undefined;
    this.drawnLens = lens;
    this.renderHead();
    this.renderBench(lens);
    const content = lens?.content ?? null;
    if (content !== this.drawn) this.renderBody(content);
  }

  private renderHead(): void {
    const doc = this.node.ownerDocument;
    const lens = this.model.lens;
    clear(this.head);
    this.fitLine = () => undefined;
    if (!lens) {
      this.head.appendChild(h(doc, 'div', { class: 'pl-panel-status' }, this.t('ui.panel.open_notebook')));
      return;
    }
    const said = statusText(this.t, lens);
    // ready with models it says nothing: no empty line above the picker
    if (said || lens.status !== 'ready')
      this.head.appendChild(h(doc, 'div', { class: 'pl-panel-status', 'data-status': lens.status }, said));
    if (lens.status === 'not-loaded' || lens.status === 'error') {
      const load = h(doc, 'button', { type: 'button', class: 'jp-mod-styled pl-load' }, this.t('ui.panel.load'));
      load.title = this.t('ui.panel.load_title');
      load.addEventListener('click', () => void lens.load());
      this.head.appendChild(load);
    }
    if (lens.status !== 'ready' || !lens.models || !lens.models.models.length) return;
    // picker, stage tabs and the node count on one line (head-line.ts)
    const line = h(doc, 'div', { class: 'pl-panel-row pl-panel-line' });
    const say = this.words(lens);
    const m = lens.models;
    const options: Array<[string, string]> = [
      [FOLLOW, say('ui.panel.newest', { name: m.current ?? '—' })],
      ...m.models.map((r): [string, string] => [r.name, modelText(say, r)]),
    ];
    line.appendChild(
      pickerSelect(doc, say('ui.panel.model'), options, lens.pinned ? lens.picked! : FOLLOW, (v) =>
        lens.pick(v === FOLLOW ? null : v),
      ),
    );
    const active = lens.tab ?? lens.current?.stage ?? null;
    const stages = stageTabs(doc, say, lens.tabs, active, (t) => lens.pickTab(t === lens.current?.stage ? null : t));
    line.append(stages.bar, stages.menu);
    const cur = lens.current;
    const full = cur ? say('ui.panel.nodes', { n: cur.node_count }) : '';
    const count = h(doc, 'span', { class: 'pl-status pl-current', title: full }, full);
    if (cur) line.appendChild(count);
    this.head.appendChild(line);
    this.fitLine = () => {
      count.textContent = full;
      stages.fit(line);
      // no room left for the words: the number alone, its tooltip says what it counts
      if (cur && line.scrollWidth > line.clientWidth) count.textContent = String(cur.node_count);
    };
    this.fitLine();
    if (lens.loadingContent)
      this.head.appendChild(h(doc, 'div', { class: 'pl-panel-status' }, this.t('ui.panel.loading_content')));
    if (lens.contentError)
      this.head.appendChild(h(doc, 'div', { class: 'pl-panel-error', role: 'alert' }, lens.contentError(this.t)));
  }

  /** The workbench's step bar, drawn by the widget's own code and sent to the same kernel object. */
  private renderBench(lens: SessionLens | null): void {
    const shown = lens?.bench ?? null;
    this.bench.hidden = shown === null;
    if (!shown || !lens) {
      clear(this.bench);
      return;
    }
    const act = (action: string, extra: Record<string, string> = {}): void => {
      const value = Object.values(extra)[0];
      void lens.benchAct(action, value);
    };
    // "keep fp32" takes the node or group selected in the panel's graph, as the widget's takes its own
    const pick = (): string | null => this.handle?.panes.find((p) => p?.selected)?.selected ?? null;
    drawBar(this.bench, shown.state, act, pick, this.typed, shown.gone);
  }

  /** The node selected in the view on show (with its `from_node` roots) and the model it belongs to. */
  private selection(): { model: string; node: GraphNode } | null {
    const prev = this.drawn;
    if (!prev || prev.kind === 'groups' || !this.handle) return null;
    for (const gv of this.handle.panes) {
      const node = gv?.selected ? gv.facts.nodes.get(gv.selected) : undefined;
      if (node) return { model: prev.result.name, node };
    }
    return null;
  }

  private renderBody(content: Content | null): void {
    const doc = this.node.ownerDocument;
    const lens = this.model.lens;
    // another stage tab of the same model: the selection follows to its counterpart there (same name, else
    // from_node), selected, revealed and centred with its drawer; with none, nothing stays selected
    const carried = this.selection();
    this.drawn = content;
    this.handle?.destroy();
    this.handle = null;
    clear(this.body);
    if (!content || !lens) return;
    if (content.kind === 'groups') {
      this.body.appendChild(this.groupList(lens, content));
      return;
    }
    const r = content.result;
    const up = lens.parentPlace;
    if (content.kind === 'stage' && up !== null) {
      const back = h(
        doc,
        'button',
        { type: 'button', class: 'pl-back' },
        `← ${up || this.t('ui.panel.all_of', { name: r.name })}`,
      );
      back.addEventListener('click', () => lens.openGroup(up));
      this.body.appendChild(back);
    }
    // a module of a large graph keeps its title on show (the line names only the model and stage)
    const host = h(doc, 'div', {
      class: up !== null && content.kind === 'stage' ? 'pl-panel-view pl-panel-part' : 'pl-panel-view',
    });
    this.body.appendChild(host);
    const handle = render(host, r.view, { height: 480 });
    this.handle = handle;
    if (carried && carried.model === r.name)
      void handle.ready.then(() => {
        const gv = handle.panes.length === 1 ? handle.panes[0] : null;
        if (gv && this.handle === handle) void gv.follow(new Set(sameNodeIn(carried.node, gv.nodes)));
      });
  }

  private groupList(lens: SessionLens, c: Extract<Content, { kind: 'groups' }>): HTMLElement {
    const doc = this.node.ownerDocument;
    const box = h(doc, 'div', { class: 'pt2e-lens pl-groups' });
    const where = c.key ? this.t('ui.panel.module', { name: c.outline.title(c.key) }) : this.t('ui.panel.this_graph');
    box.appendChild(h(doc, 'div', { class: 'pl-panel-status' }, this.t('ui.panel.too_large', { where, n: c.total })));
    const up = c.outline.parent(c.key);
    if (up !== null) {
      const back = h(
        doc,
        'button',
        { type: 'button', class: 'pl-back' },
        `← ${up ? c.outline.title(up) : this.t('ui.panel.whole_graph')}`,
      );
      back.addEventListener('click', () => lens.openGroup(up));
      box.appendChild(back);
    }
    for (const g of c.outline.rows(c.key)) {
      const b = h(doc, 'button', { type: 'button', 'data-group': g.key }, groupText(this.t, g));
      b.addEventListener('click', () => lens.openGroup(g.key));
      box.appendChild(b);
    }
    const loose = c.outline.loose(c.key);
    if (loose) box.appendChild(h(doc, 'div', { class: 'pl-panel-status' }, this.t('ui.panel.loose', { n: loose })));
    return box;
  }

  /** Save the current model's report (the kernel sends the HTML: it may be remote). */
  async exportReport(): Promise<string | null> {
    const rep = await this.model.lens?.report();
    if (!rep) return null;
    const doc = this.node.ownerDocument;
    const url = URL.createObjectURL(new Blob([rep.html], { type: 'text/html' }));
    const a = h(doc, 'a', { href: url, download: rep.filename });
    doc.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    return rep.filename;
  }

  /** Closing the panel disposes its model (and so the active notebook's comm). */
  dispose(): void {
    if (this.isDisposed) return;
    this.handle?.destroy();
    this.resizes?.disconnect();
    this.model.dispose();
    super.dispose();
  }
}
