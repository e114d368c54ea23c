// Main-thread work split into page tasks: a 100k-node graph's placement (hier-layout.ts) is assembled over
// many tasks of ~ms each, so input and frames run between them (no long task).

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** when the last nextTask turn began */
let resumed = Number.NEGATIVE_INFINITY;

/** When the current page task began, as far as this module knows: the start of the last nextTask turn. Stages
 * run one after another (placement, index, draw) charge one budget per task this way, instead of each starting
 * a fresh one where the last left off. In a task begun by anything else (a click, a timer, a worker's answer)
 * this is older, so a budget taken there is spent at once: a pause too many, never a task too long. */
export function taskStart(): number {
  return resumed;
}

/** End the current page task: a message-channel turn (setTimeout is clamped to ≥ 4 ms when nested). */
export function nextTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined')
    return new Promise((r) =>
      setTimeout(() => {
        resumed = now();
        r();
      }, 0),
    );
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      resumed = now();
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/** A step generator (it yields where it may pause) run to its end in this task: its result. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
}

/** A step generator run to its end in page tasks of ~sliceMs (`pause` ends one); the first slice counts from the
 * current task's start (taskStart), so stages run one after another share its budget. */
export async function runStepsInSlices<T>(
  steps: Generator<void, T>,
  pause: () => Promise<void>,
  sliceMs = 25,
): Promise<T> {
  let t0 = taskStart();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (now() - t0 > sliceMs) {
      await pause();
      t0 = now();
    }
  }
}

/** A budget of `ms` per task, shared by everyone working on one job (concurrent async steps included). */
export class Slicer {
  private start = taskStart();
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
