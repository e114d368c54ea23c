// LensModel: one lens for the active notebook, disposed (comm closed) on a switch, on the notebook's
// close and with the model; the user's pick remembered per notebook across switches.
import { describe, expect, it } from 'vitest';
import { LensModel } from '../../../src/lab/panel/model';
import { FakeKernel, FakeNotebook, FakeTracker, models, settle } from './fakes';

function notebook(path: string, name: string) {
  const kernel = new FakeKernel();
  kernel.loaded = true;
  kernel.replies = { subscribe: models(1, name, ['ep']) };
  return new FakeNotebook(kernel, path);
}

describe('LensModel', () => {
  it('follows the active notebook, disposing the lens (and comm) of the one left', async () => {
    const tracker = new FakeTracker();
    const model = new LensModel(tracker as never);
    let changes = 0;
    model.changed.connect(() => changes++);
    expect(model.lens).toBeNull();
    const a = notebook('a.ipynb', 'run_a');
    const b = notebook('b.ipynb', 'run_b');
    tracker.activate(a);
    await settle();
    const lensA = model.lens!;
    expect(lensA.current?.name).toBe('run_a');
    expect(changes).toBeGreaterThan(1);
    tracker.activate(b);
    await settle();
    expect(lensA.isDisposed).toBe(true);
    expect(a.kernel.comms[0].isDisposed).toBe(true);
    expect(model.lens!.current?.name).toBe('run_b');
    b.disposed.emit(); // the notebook closes
    expect(model.lens).toBeNull();
    expect(b.kernel.comms[0].isDisposed).toBe(true);
    model.dispose();
    expect(model.isDisposed).toBe(true);
    tracker.activate(a);
    expect(model.lens).toBeNull();
  });

  it('remembers each notebook’s pick across switches', async () => {
    const tracker = new FakeTracker();
    const model = new LensModel(tracker as never);
    const a = notebook('a.ipynb', 'run_a');
    const b = notebook('b.ipynb', 'run_b');
    tracker.activate(a);
    await settle();
    model.lens!.pick('ep');
    await settle();
    tracker.activate(b);
    await settle();
    expect(model.lens!.current?.name).toBe('run_b');
    tracker.activate(a);
    await settle();
    expect(model.lens!.picked).toBe('ep');
    expect(model.lens!.current?.name).toBe('ep');
    model.dispose();
    expect(a.kernel.comms.every((c) => c.isDisposed)).toBe(true);
  });
});
