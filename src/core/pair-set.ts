// A set of pairs of small non-negative integers (item numbers), open addressing in typed arrays: grouping
// a 100k-node graph asks it once per edge, where a Set of strings or numbers hashed and allocated each time.

export class PairSet {
  private a: Int32Array;
  private b: Int32Array;
  private mask: number;
  private size = 0;

  constructor(expected = 16) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.a = new Int32Array(cap).fill(-1);
    this.b = new Int32Array(cap);
    this.mask = cap - 1;
  }

  /** Adds (x, y); false when it was there already. */
  add(x: number, y: number): boolean {
    let i = (Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77)) & this.mask;
    for (;;) {
      const ax = this.a[i];
      if (ax === -1) break;
      if (ax === x && this.b[i] === y) return false;
      i = (i + 1) & this.mask;
    }
    this.a[i] = x;
    this.b[i] = y;
    if (++this.size * 2 > this.mask) this.grow();
    return true;
  }

  private grow(): void {
    const { a, b } = this;
    this.a = new Int32Array(a.length * 2).fill(-1);
    this.b = new Int32Array(a.length * 2);
    this.mask = this.a.length - 1;
    this.size = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== -1) this.add(a[i], b[i]);
  }
}
