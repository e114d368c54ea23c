// The side panel's model: one SessionLens for the active notebook, made when a notebook becomes active and
// disposed (its comm closed) when another one does, when the notebook closes, or with the panel. The
// user's pick of a model is remembered per notebook across those switches.
import type { ISessionContext } from '@jupyterlab/apputils';
import type { IDisposable } from '@lumino/disposable';
import { type ISignal, Signal } from '@lumino/signaling';
import { SessionLens } from './session';

/** What the model reads of a notebook panel (INotebookTracker's widgets have it). */
export interface NotebookLike {
  readonly sessionContext: ISessionContext;
  readonly disposed: ISignal<NotebookLike, void>;
}

/** What the model reads of the notebook tracker. */
export interface ActiveNotebook {
  readonly currentWidget: NotebookLike | null;
  readonly currentChanged: ISignal<unknown, unknown>;
}

export class LensModel implements IDisposable {
  private _lens: SessionLens | null = null;
  private notebook: NotebookLike | null = null;
  private readonly picks = new Map<string, string | null>();
  private _isDisposed = false;
  private readonly _changed = new Signal<this, void>(this);

  constructor(private readonly notebooks: ActiveNotebook) {
    notebooks.currentChanged.connect(this.follow, this);
    this.follow();
  }

  /** Emitted when the active notebook's lens changes or changes state. */
  get changed(): ISignal<this, void> {
    return this._changed;
  }

  /** The lens of the active notebook (null when no notebook is active). */
  get lens(): SessionLens | null {
    return this._lens;
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  private follow(): void {
    const nb = this.notebooks.currentWidget;
    if (nb === this.notebook || this._isDisposed) return;
    this.release();
    this.notebook = nb;
    if (nb) {
      nb.disposed.connect(this.onNotebookDisposed, this);
      this._lens = new SessionLens(nb.sessionContext, { picked: this.picks.get(nb.sessionContext.path) ?? null });
      this._lens.changed.connect(this.onLensChanged, this);
    }
    this._changed.emit();
  }

  private onLensChanged(lens: SessionLens): void {
    if (this.notebook) this.picks.set(this.notebook.sessionContext.path, lens.picked);
    this._changed.emit();
  }

  private onNotebookDisposed(nb: NotebookLike): void {
    if (nb !== this.notebook) return;
    this.release();
    this._changed.emit();
  }

  /** Dispose the active notebook's lens (closing its comm), remembering its pick. */
  private release(): void {
    const nb = this.notebook;
    if (nb && this._lens) this.picks.set(nb.sessionContext.path, this._lens.picked);
    nb?.disposed.disconnect(this.onNotebookDisposed, this);
    this._lens?.dispose();
    this._lens = null;
    this.notebook = null;
  }

  dispose(): void {
    if (this._isDisposed) return;
    this.release();
    this._isDisposed = true;
    Signal.clearData(this);
  }
}
