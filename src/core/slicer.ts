// Main-thread work split into page tasks: a 100k-node graph's placement (hier-layout.ts) is assembled over
// many tasks of ~ms each, so input and frames run between them (no long task).

/** End the current page task: a message-channel turn (setTimeout is clamped to ≥ 4 ms when nested). */
export function nextTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((r) => setTimeout(r, 0));
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** A budget of `ms` per task, shared by everyone working on one job (concurrent async steps included). */
export class Slicer {
  private start = now();
  private waiting: Promise<void> | null = null;
  constructor(private ms = 25) {}

  /** null while this task has budget left, else the next task (one promise for every caller) to await. */
  due(): Promise<void> | null {
    if (this.waiting) return this.waiting;
    if (now() - this.start < this.ms) return null;
    this.waiting = nextTask().then(() => {
      this.waiting = null;
      this.start = now();
    });
    return this.waiting;
  }

  /** Resolves within a task that has budget left: everyone woken by the same next task checks again, so
   * they do not all run in that one task. */
  async pace(): Promise<void> {
    for (let p = this.due(); p; p = this.due()) await p;
  }
}
