// The self-unpacking viewer of a saved output's text/html (kernel_pkg/pt2e_lens/_static.py): report.js,
// compressed with LZMA (Python's lzma, raw LZMA1: lc=3, lp=0, pb=0; ~12 % smaller than gzip -9), written in
// base91 pairs. Every output carries this function's text, so it is small and stands alone: scripts/build.mjs
// writes its minified source (Function.prototype.toString) to _static/unpacker.js. It decodes in one task,
// appends report.js as a script, and the viewer draws every output of the page. A page holds many outputs: the
// first one loads, the others find the viewer. Outputs of an older pt2e-lens (gzip, async: `__pt2eLensLoad`)
// on the same page are waited for.

/** `data`: base91 pairs of the LZMA stream (`size` bytes); `out`: the length of report.js in UTF-8 bytes. */
export function unpackViewer(data: string, size: number, out: number): void {
  const g = globalThis as unknown as {
    pt2eLens?: { renderOutput?: unknown; renderAll: (d: Document) => void };
    __pt2eLensLoad?: Promise<void>;
  };
  const doc = document;
  if (g.pt2eLens?.renderOutput) {
    g.pt2eLens.renderAll(doc);
    return;
  }
  if (g.__pt2eLensLoad) {
    g.__pt2eLensLoad.then(() => g.pt2eLens?.renderAll(doc));
    return;
  }
  // the packed Views need it (src/core/packed.ts): without it (browsers before 2023) the static fallback stays
  if (typeof DecompressionStream === 'undefined') return;
  // base91 pairs: every 13 bits (little-endian bit order) are two letters of printable ASCII from `!` without
  // `"` (34), `<` (60) and `\` (92)
  const value = (i: number): number => {
    const c = data.charCodeAt(i);
    return c - 33 - +(c > 34) - +(c > 60) - +(c > 92);
  };
  const src = new Uint8Array(size + 2);
  let j = 0;
  for (let i = 0, acc = 0, bits = 0; i < data.length; i += 2) {
    acc |= (value(i) + 91 * value(i + 1)) << bits;
    for (bits += 13; bits > 7; bits -= 8) {
      src[j++] = acc & 255;
      acc >>>= 8;
    }
  }
  // LZMA: the range decoder and probability layout of the LZMA SDK's reference decoder (LzmaSpec.cpp), with
  // pb = lp = 0 (one position state) and lc = 3; `prob` indices: the flags per state, then the trees
  const IS_MATCH = 0;
  const IS_REP = 12;
  const IS_REP_G0 = 24;
  const IS_REP_G1 = 36;
  const IS_REP_G2 = 48;
  const IS_REP0_LONG = 60;
  const POS_SLOT = 72; // 4 trees of 6 bits
  const SPEC_POS = 328; // 115
  const ALIGN = 443; // 16
  const LEN = 459; // choice, choice2, low 8, mid 8, high 256
  const REP_LEN = 733;
  const LITERAL = 1007; // 8 × 0x300
  const prob = new Uint16Array(LITERAL + 0x1800).fill(1024);
  const o = new Uint8Array(out);
  // range and code are unsigned 32-bit values kept in int32s (fast small integers, no doubles): compared
  // unsigned by flipping their top bits
  let range = -1;
  let code = 0;
  let k = 5;
  for (let i = 1; i < 5; i++) code = (code << 8) | src[i];
  const normalize = () => {
    if (!(range >>> 24)) {
      range <<= 8;
      code = (code << 8) | src[k++];
    }
  };
  const bit = (x: number): number => {
    const p = prob[x];
    const bound = Math.imul(range >>> 11, p);
    if ((code ^ 0x80000000) < (bound ^ 0x80000000)) {
      range = bound;
      prob[x] = p + ((2048 - p) >> 5);
      normalize();
      return 0;
    }
    range = (range - bound) | 0;
    code = (code - bound) | 0;
    prob[x] = p - (p >> 5);
    normalize();
    return 1;
  };
  const tree = (base: number, n: number): number => {
    let x = 1;
    while (x < 1 << n) x = (x << 1) | bit(base + x);
    return x - (1 << n);
  };
  const reverse = (base: number, n: number): number => {
    let x = 1;
    let y = 0;
    for (let i = 0; i < n; i++) {
      const b = bit(base + x);
      x = (x << 1) | b;
      y |= b << i;
    }
    return y;
  };
  const length = (base: number): number =>
    !bit(base) ? tree(base + 2, 3) : !bit(base + 1) ? 8 + tree(base + 10, 3) : 16 + tree(base + 18, 8);
  let state = 0;
  let [rep0, rep1, rep2, rep3] = [0, 0, 0, 0];
  for (let n = 0; n < out; ) {
    if (!bit(IS_MATCH + state)) {
      const base = LITERAL + 0x300 * (n ? o[n - 1] >> 5 : 0);
      let s = 1;
      if (state > 6) {
        // after a match the literal is coded against the byte at the last distance
        for (let m = o[n - rep0 - 1]; s < 0x100; m <<= 1) {
          const mb = (m >> 7) & 1;
          const b = bit(base + ((1 + mb) << 8) + s);
          s = (s << 1) | b;
          if (mb !== b) break;
        }
      }
      while (s < 0x100) s = (s << 1) | bit(base + s);
      o[n++] = s - 0x100;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len: number;
    if (bit(IS_REP + state)) {
      if (!bit(IS_REP_G0 + state)) {
        if (!bit(IS_REP0_LONG + state)) {
          state = state < 7 ? 9 : 11;
          o[n] = o[n - rep0 - 1];
          n++;
          continue;
        }
      } else {
        let d: number;
        if (!bit(IS_REP_G1 + state)) d = rep1;
        else {
          if (!bit(IS_REP_G2 + state)) d = rep2;
          else [d, rep3] = [rep3, rep2];
          rep2 = rep1;
        }
        [rep1, rep0] = [rep0, d];
      }
      len = length(REP_LEN);
      state = state < 7 ? 8 : 11;
    } else {
      [rep3, rep2, rep1] = [rep2, rep1, rep0];
      len = length(LEN);
      state = state < 7 ? 7 : 10;
      const slot = tree(POS_SLOT + 64 * Math.min(len, 3), 6);
      rep0 = slot;
      if (slot > 3) {
        const n2 = (slot >> 1) - 1;
        rep0 = (2 | (slot & 1)) << n2;
        if (slot < 14) rep0 += reverse(SPEC_POS + rep0 - slot, n2);
        else {
          let direct = 0;
          for (let i = n2 - 4; i > 0; i--) {
            range >>>= 1;
            code = (code - range) | 0;
            const t = code >> 31; // -1 where code was below range
            code = (code + (range & t)) | 0;
            direct = (direct << 1) | (t + 1);
            normalize();
          }
          rep0 += (direct << 4) + reverse(ALIGN, 4);
        }
      }
    }
    // the end marker's distance is past every output: the loop ends on `out` bytes first
    for (len += 2; len-- && n < out; n++) o[n] = o[n - rep0 - 1];
  }
  const script = doc.createElement('script');
  script.textContent = new TextDecoder().decode(o);
  (doc.head || doc.documentElement).appendChild(script);
}
