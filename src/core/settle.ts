// A pane's ready signal (docs/frontend.md, "Ready signal"): tests and embedders wait on it, never on time.
// Every change a pane takes (layout, fit, paint, search, expand/collapse, selection, theme, size) begins work here;
// when all of it has been painted the pane's elements get `data-settled` one higher, lose `data-busy`, and the
// painted element dispatches a bubbling `pl-settled` event with `detail: {settled}`. A view whose model moves into
// a worker (issue 28) ends its work once the frame that worker sent is painted.
import { nextTask } from './slicer';

export class Settle {
  /** how many times the pane has settled */
  count = 0;
  /** promise-tracked work under way (begin … end) */
  private work = 0;
  /** named work with no promise of its own (a canvas's pending crisp draw, a search waiting on typing) */
  private holds = new Set<string>();
  private checking = false;
  private targets: Element[] = [];
  private stopped = false;

  /** `emitter`: the element that is painted now (the event's target) */
  constructor(private emitter: () => Element | null) {}

  /** Put the signal's attributes on `el` too (both renderers' elements carry them, like `data-nodes`). */
  attach(el: Element): void {
    this.targets.push(el);
    el.setAttribute('data-settled', String(this.count));
    if (this.busy()) el.setAttribute('data-busy', '');
  }

  /** Work begins; the returned function ends it (calling it again does nothing). */
  begin(): () => void {
    this.work++;
    this.mark();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.work--;
      this.check();
    };
  }

  /** `p` is work: the pane is busy until it resolves or rejects. */
  track<T>(p: Promise<T>): Promise<T> {
    const end = this.begin();
    p.then(end, end);
    return p;
  }

  /** A change whose work is done at once (a mark set on SVG, a transform applied) still settles once. */
  touch(): void {
    this.begin()();
  }

  /** Named work on (`on` true) or done. */
  hold(name: string, on: boolean): void {
    if (on) {
      this.holds.add(name);
      this.mark();
    } else if (this.holds.delete(name)) this.check();
  }

  stop(): void {
    this.stopped = true;
  }

  private busy(): boolean {
    return this.work > 0 || this.holds.size > 0;
  }

  /** After the next rendered frame (a hidden page renders none: then the next task). */
  private async frame(): Promise<void> {
    const win = this.emitter()?.ownerDocument.defaultView;
    if (win?.requestAnimationFrame && !win.document.hidden)
      await new Promise<void>((r) => win.requestAnimationFrame(() => r()));
    await nextTask();
  }

  private mark(): void {
    for (const el of this.targets) el.setAttribute('data-busy', '');
  }

  /** Settle once nothing is under way, after the next frame is rendered (the DOM's changes painted, and what that
   * frame's layout set off has begun: a ResizeObserver's re-fit, a canvas's crisp draw after the view moved, a redraw
   * a compare pane starts after its neighbour's), in a task of its own. */
  private check(): void {
    if (this.checking || this.busy() || this.stopped) return;
    this.checking = true;
    void this.frame()
      .then(() => this.settleNow())
      .catch((e: unknown) => {
        this.checking = false;
        if (!this.stopped) throw e; // a destroyed pane's page may be gone (a test's jsdom torn down): nothing to tell
      });
  }

  private settleNow(): void {
    this.checking = false;
    if (this.busy() || this.stopped) return;
    this.count++;
    for (const el of this.targets) {
      el.setAttribute('data-settled', String(this.count));
      el.removeAttribute('data-busy');
    }
    const at = this.emitter();
    const win = at?.ownerDocument.defaultView;
    if (at && win)
      at.dispatchEvent(new win.CustomEvent('pl-settled', { bubbles: true, detail: { settled: this.count } }));
  }
}
