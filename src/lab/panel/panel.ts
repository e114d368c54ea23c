// The "PT2E" side panel: follows the active notebook and renders its SessionLens with src/core.
// All model text goes in through textContent (core's `h`), never innerHTML.
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { Widget } from '@lumino/widgets';
import { clear, h } from '../../core/dom';
import { type RenderHandle, render } from '../../core/index';
import { injectStyles } from '../../core/styles';
import type { GroupRow, ModelRow, StageResult } from './protocol';
import { type Content, SessionLens } from './session';

const PANEL_CSS = `
.jp-Pt2eLensPanel{overflow:auto;padding:6px 8px;background:var(--jp-layout-color1);color:var(--jp-ui-font-color1);font-size:var(--jp-ui-font-size1)}
.jp-Pt2eLensPanel .pl-panel-status{margin:4px 0}
.jp-Pt2eLensPanel .pl-panel-status[data-status="error"]{color:#b91c1c}
.jp-Pt2eLensPanel .pl-panel-row{display:flex;gap:6px;align-items:center;margin:4px 0;flex-wrap:wrap}
.jp-Pt2eLensPanel select{max-width:100%;flex:1}
.jp-Pt2eLensPanel .pl-groups button{display:block;width:100%;text-align:left;margin:2px 0;font:inherit;cursor:pointer}
.jp-Pt2eLensPanel .pl-panel-error{color:#b91c1c;margin:4px 0}
`;
const FOLLOW = '\u0000follow';

function statusText(lens: SessionLens): string {
  switch (lens.status) {
    case 'no-kernel':
      return lens.message || 'no kernel';
    case 'connecting':
      return 'connecting to the kernel…';
    case 'loading':
      return 'loading pt2e-lens in the kernel…';
    case 'not-loaded':
      return `${lens.restarted ? 'kernel restarted — ' : ''}pt2e-lens is not loaded in this kernel`;
    case 'error':
      return lens.message;
    case 'ready':
      return lens.models?.models.length
        ? ''
        : 'no model yet: create a pl.Run, an ExportedProgram or a GraphModule in this notebook';
  }
}

function modelText(r: ModelRow): string {
  return `${r.name} · ${r.type} · ${r.node_count} nodes · ${r.stage}`;
}

function groupText(g: GroupRow): string {
  const facts = [`${g.node_count} nodes`];
  if (g.annotations) facts.push(`${g.annotations} annotated`);
  if (g.observers) facts.push(`${g.observers} observer nodes`);
  if (g.qdq) facts.push(`${g.qdq} q/dq`);
  return `${g.group} (${g.class}) — ${facts.join(', ')}`;
}

export class LensPanel extends Widget {
  private lenses = new Map<NotebookPanel, SessionLens>();
  private lens: SessionLens | null = null;
  private head: HTMLElement;
  private body: HTMLElement;
  private handle: RenderHandle | null = null;
  private drawn: Content | null | undefined = undefined;

  constructor(private tracker: INotebookTracker) {
    super();
    this.id = 'pt2e-lens-panel';
    this.addClass('jp-Pt2eLensPanel');
    this.title.caption = 'PT2E: what the quantizer did';
    const doc = this.node.ownerDocument;
    if (!doc.getElementById('pt2e-lens-panel-css')) {
      const style = h(doc, 'style', { id: 'pt2e-lens-panel-css' }, PANEL_CSS);
      doc.head.appendChild(style);
    }
    this.head = h(doc, 'div', { class: 'pt2e-lens pl-panel-head' });
    this.body = h(doc, 'div', { class: 'pl-panel-body' });
    this.node.append(this.head, this.body);
    injectStyles(this.head);
    tracker.currentChanged.connect(() => this.follow(tracker.currentWidget), this);
    this.follow(tracker.currentWidget);
    this.refresh();
  }

  /** The lens of the active notebook (null when no notebook is open). */
  get current(): SessionLens | null {
    return this.lens;
  }

  private lensFor(nb: NotebookPanel): SessionLens {
    let lens = this.lenses.get(nb);
    if (!lens) {
      lens = new SessionLens(nb.sessionContext);
      this.lenses.set(nb, lens);
      nb.disposed.connect(() => {
        this.lenses.get(nb)?.dispose();
        this.lenses.delete(nb);
        if (this.tracker.currentWidget === null) this.follow(null);
      });
    }
    return lens;
  }

  private follow(nb: NotebookPanel | null): void {
    const next = nb ? this.lensFor(nb) : null;
    if (next === this.lens) return;
    this.lens?.changed.disconnect(this.refresh, this);
    this.lens = next;
    this.lens?.changed.connect(this.refresh, this);
    this.drawn = undefined;
    this.refresh();
  }

  private refresh(): void {
    this.renderHead();
    const content = this.lens?.content ?? null;
    if (content !== this.drawn) this.renderBody(content);
  }

  private renderHead(): void {
    const doc = this.node.ownerDocument;
    const lens = this.lens;
    clear(this.head);
    if (!lens) {
      this.head.appendChild(h(doc, 'div', { class: 'pl-panel-status' }, 'open a notebook to see its PT2E models'));
      return;
    }
    const status = h(doc, 'div', { class: 'pl-panel-status', 'data-status': lens.status }, statusText(lens));
    this.head.appendChild(status);
    if (lens.status === 'not-loaded' || lens.status === 'error') {
      const load = h(
        doc,
        'button',
        { type: 'button', class: 'jp-mod-styled pl-load' },
        'Load pt2e-lens in this kernel',
      );
      load.addEventListener('click', () => void lens.load());
      this.head.appendChild(load);
    }
    if (lens.status !== 'ready' || !lens.models || !lens.models.models.length) return;
    this.head.appendChild(this.picker(lens));
    const tabs = lens.tabs;
    const active = lens.tab ?? lens.current?.stage ?? null;
    const bar = h(doc, 'div', { class: 'pl-tabs pl-panel-stages', role: 'tablist' });
    for (const t of tabs) {
      const b = h(
        doc,
        'button',
        { class: 'pl-tab', role: 'tab', type: 'button', 'aria-selected': String(t === active), 'data-stage': t },
        t,
      );
      b.addEventListener('click', () => lens.pickTab(t === lens.current?.stage ? null : t));
      bar.appendChild(b);
    }
    this.head.appendChild(bar);
    if (lens.loadingContent) this.head.appendChild(h(doc, 'div', { class: 'pl-panel-status' }, 'loading…'));
    if (lens.contentError)
      this.head.appendChild(h(doc, 'div', { class: 'pl-panel-error', role: 'alert' }, lens.contentError));
  }

  private picker(lens: SessionLens): HTMLElement {
    const doc = this.node.ownerDocument;
    const m = lens.models!;
    const row = h(doc, 'div', { class: 'pl-panel-row' });
    const select = h(doc, 'select', { 'aria-label': 'model', class: 'pl-model-picker' });
    const newest = m.pinned ? 'follow the newest model' : `newest: ${m.current ?? '—'}`;
    select.appendChild(h(doc, 'option', { value: FOLLOW }, newest));
    for (const r of m.models) select.appendChild(h(doc, 'option', { value: r.name }, modelText(r)));
    select.value = m.pinned ?? FOLLOW;
    select.addEventListener('change', () => void lens.select(select.value === FOLLOW ? null : select.value));
    row.appendChild(select);
    const cur = lens.current;
    if (cur) row.appendChild(h(doc, 'span', { class: 'pl-status pl-current' }, `${cur.node_count} nodes`));
    return row;
  }

  private renderBody(content: Content | null): void {
    const doc = this.node.ownerDocument;
    this.drawn = content;
    this.handle?.destroy();
    this.handle = null;
    clear(this.body);
    if (!content) return;
    const r = content.result;
    if (content.kind === 'stage' && content.result.collapsed) {
      this.body.appendChild(this.groupList(content.result));
      return;
    }
    if (content.kind === 'stage' && content.result.group) {
      const back = h(doc, 'button', { type: 'button', class: 'pl-back' }, `← all of ${r.name}`);
      back.addEventListener('click', () => this.lens?.openGroup(''));
      this.body.appendChild(back);
    }
    const host = h(doc, 'div', { class: 'pl-panel-view' });
    this.body.appendChild(host);
    this.handle = render(host, r.view, { height: 480 });
  }

  private groupList(r: StageResult): HTMLElement {
    const doc = this.node.ownerDocument;
    const group = r.group;
    const box = h(doc, 'div', { class: 'pt2e-lens pl-groups' });
    const where = group ? `module ${group}` : 'this graph';
    box.appendChild(
      h(
        doc,
        'div',
        { class: 'pl-panel-status' },
        `${where} is too large to send at once (${r.total_nodes ?? '?'} nodes): pick a module`,
      ),
    );
    if (r.parent !== null && r.parent !== undefined) {
      const parent = r.parent;
      const up = h(doc, 'button', { type: 'button' }, `← ${parent || 'whole graph'}`);
      up.addEventListener('click', () => this.lens?.openGroup(parent));
      box.appendChild(up);
    }
    for (const g of r.groups ?? []) {
      const b = h(doc, 'button', { type: 'button', 'data-group': g.group }, groupText(g));
      b.addEventListener('click', () => this.lens?.openGroup(g.group));
      box.appendChild(b);
    }
    return box;
  }

  /** Save the current model's report (the kernel sends the HTML: it may be remote). */
  async exportReport(): Promise<string | null> {
    const rep = await this.lens?.report();
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

  dispose(): void {
    this.handle?.destroy();
    for (const lens of this.lenses.values()) lens.dispose();
    this.lenses.clear();
    super.dispose();
  }
}
