// A fast layered (Sugiyama-style) layout for big groups, where dagre's network-simplex ranking and
// its ordering passes cost seconds: DFS cycle breaking, longest-path ranks then each node as late as its
// consumers allow (so weights and their dequantize sit beside the op they feed), long edges split into per-rank points,
// a few barycenter ordering sweeps (the best order by crossing count kept), then x by weighted isotonic
// regression per rank, where edges between two ops weigh most: a chain of ops stays straight and skip
// connections, weights and observers go around it. Every pass is O(V + E) (V counting the edge points).
// Pure and deterministic: same request, same result.

export interface LayeredNode {
  id: string;
  w: number;
  h: number;
}

export interface Layered {
  pos: Record<string, [number, number]>;
  width: number;
  height: number;
  /** per request edge: from the bottom of its source to the top of its target, or [] (self loop, unknown end) */
  routes: Array<Array<[number, number]>>;
}

const NODESEP = 22;
const POINTSEP = 10;
const RANKSEP = 30;
const SWEEPS = 4;
const PLACE_PASSES = 6;

/** Edge weights for straightening: op→op, along a long edge, between an op and a long edge, a side input. */
const W_OPS = 8;
const W_LONG = 6;
const W_MIXED = 2;
const W_SIDE = 1;

/** Budget of edge points: beyond it the longest edges are drawn straight, not routed through each rank. */
const pointBudget = (n: number): number => 20 * n + 2000;

export function layeredLayout(nodes: LayeredNode[], edgeList: Array<[string, string]>): Layered {
  const n = nodes.length;
  const index = new Map<string, number>();
  for (let i = 0; i < n; i++) index.set(nodes[i].id, i);

  // 1. distinct edges between distinct known nodes
  const key = new Map<string, number>();
  const src: number[] = [];
  const dst: number[] = [];
  const edgeOf: number[] = edgeList.map(([a, b]) => {
    const ia = index.get(a);
    const ib = index.get(b);
    if (ia === undefined || ib === undefined || ia === ib) return -1;
    const k = `${ia},${ib}`;
    let e = key.get(k);
    if (e === undefined) {
      e = src.length;
      key.set(k, e);
      src.push(ia);
      dst.push(ib);
    }
    return e;
  });
  const m = src.length;

  // 2. break cycles: edges into a node still on the DFS stack are reversed
  const out: number[][] = Array.from({ length: n }, () => []);
  for (let e = 0; e < m; e++) out[src[e]].push(e);
  const reversed = new Uint8Array(m);
  const state = new Uint8Array(n); // 0 new, 1 on stack, 2 done
  for (let s = 0; s < n; s++) {
    if (state[s]) continue;
    const stack: Array<[number, number]> = [[s, 0]];
    state[s] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [v, i] = top;
      if (i < out[v].length) {
        top[1] = i + 1;
        const e = out[v][i];
        const w = dst[e];
        if (state[w] === 1) reversed[e] = 1;
        else if (state[w] === 0) {
          state[w] = 1;
          stack.push([w, 0]);
        }
      } else {
        state[v] = 2;
        stack.pop();
      }
    }
  }
  const from = (e: number): number => (reversed[e] ? dst[e] : src[e]);
  const to = (e: number): number => (reversed[e] ? src[e] : dst[e]);
  const succ: number[][] = Array.from({ length: n }, () => []);
  const pred: number[][] = Array.from({ length: n }, () => []);
  for (let e = 0; e < m; e++) {
    succ[from(e)].push(e);
    pred[to(e)].push(e);
  }

  // 3. ranks: longest path in topological order; a source sits one rank above its nearest consumer
  const indeg = pred.map((p) => p.length);
  const topo: number[] = [];
  for (let v = 0; v < n; v++) if (indeg[v] === 0) topo.push(v);
  for (let i = 0; i < topo.length; i++) for (const e of succ[topo[i]]) if (--indeg[to(e)] === 0) topo.push(to(e));
  const rank = new Int32Array(n);
  for (const v of topo) for (const e of succ[v]) rank[to(e)] = Math.max(rank[to(e)], rank[v] + 1);
  // then as late as possible: a weight's dequantize chain or an observer's inputs sit just above the op
  // they feed, not at the top of the group (sinks keep their rank, so the main chain stays compact)
  for (let i = topo.length - 1; i >= 0; i--) {
    const v = topo[i];
    if (!succ[v].length) continue;
    let r = Number.POSITIVE_INFINITY;
    for (const e of succ[v]) r = Math.min(r, rank[to(e)]);
    rank[v] = r - 1;
  }
  let low = Number.POSITIVE_INFINITY;
  for (let v = 0; v < n; v++) low = Math.min(low, rank[v]);
  if (n && low !== 0) for (let v = 0; v < n; v++) rank[v] -= low;
  let ranks = 0;
  for (let v = 0; v < n; v++) ranks = Math.max(ranks, rank[v] + 1);

  // 4. long edges become chains of points, one per rank crossed (within the budget, shortest first)
  const span = (e: number): number => rank[to(e)] - rank[from(e)];
  const byLength = [...Array(m).keys()].filter((e) => span(e) > 1).sort((a, b) => span(a) - span(b) || a - b);
  let budget = pointBudget(n);
  const routed = new Uint8Array(m);
  for (const e of byLength) {
    if (span(e) - 1 > budget) break;
    budget -= span(e) - 1;
    routed[e] = 1;
  }
  // the layered graph: real nodes 0..n-1, points after; segments between adjacent ranks
  const lrank: number[] = Array.from(rank);
  const isPoint: boolean[] = new Array(n).fill(false);
  const chainOf: number[][] = new Array(m); // per edge: [from, points…, to]
  const up: Array<Array<[number, number]>> = Array.from({ length: n }, () => []); // [neighbour, weight]
  const down: Array<Array<[number, number]>> = Array.from({ length: n }, () => []);
  const side = (v: number): boolean =>
    (pred[v].length === 0 && succ[v].length === 1) || (succ[v].length === 0 && pred[v].length === 1);
  for (let e = 0; e < m; e++) {
    const a = from(e);
    const b = to(e);
    const chain = [a];
    if (routed[e]) {
      for (let r = rank[a] + 1; r < rank[b]; r++) {
        const p = lrank.length;
        lrank.push(r);
        isPoint.push(true);
        up.push([]);
        down.push([]);
        chain.push(p);
      }
    }
    chain.push(b);
    chainOf[e] = chain;
    if (!routed[e] && span(e) > 1) continue; // drawn straight: no ordering or placement pull
    for (let i = 0; i + 1 < chain.length; i++) {
      const u = chain[i];
      const v = chain[i + 1];
      const w =
        isPoint[u] && isPoint[v] ? W_LONG : isPoint[u] || isPoint[v] ? W_MIXED : side(u) || side(v) ? W_SIDE : W_OPS;
      down[u].push([v, w]);
      up[v].push([u, w]);
    }
  }
  const total = lrank.length;

  // 5. order within ranks: DFS discovery order, then barycenter sweeps; keep the order with fewest crossings
  const layers: number[][] = Array.from({ length: ranks }, () => []);
  const seen = new Uint8Array(total);
  const visit = (s: number): void => {
    const stack = [s];
    while (stack.length) {
      const v = stack.pop()!;
      if (seen[v]) continue;
      seen[v] = 1;
      layers[lrank[v]].push(v);
      for (let i = down[v].length - 1; i >= 0; i--) if (!seen[down[v][i][0]]) stack.push(down[v][i][0]);
    }
  };
  for (let v = 0; v < n; v++) if (!up[v].length) visit(v);
  for (let v = 0; v < total; v++) if (!seen[v]) visit(v);
  const posIn = new Float64Array(total);
  const setPos = (): void => {
    for (const L of layers) for (let i = 0; i < L.length; i++) posIn[L[i]] = i;
  };
  setPos();
  let best = layers.map((L) => L.slice());
  let bestX = crossings(layers, down, posIn);
  const bary = new Float64Array(total);
  for (let it = 0; it < SWEEPS && bestX > 0; it++) {
    const downward = it % 2 === 0;
    for (let k = 1; k < ranks; k++) {
      const r = downward ? k : ranks - 1 - k;
      const L = layers[r];
      for (const v of L) {
        const nb = downward ? up[v] : down[v];
        if (!nb.length) bary[v] = posIn[v];
        else {
          let s = 0;
          for (const [u] of nb) s += posIn[u];
          bary[v] = s / nb.length;
        }
      }
      L.sort((a, b) => bary[a] - bary[b] || posIn[a] - posIn[b]);
      for (let i = 0; i < L.length; i++) posIn[L[i]] = i;
    }
    const x = crossings(layers, down, posIn);
    if (x < bestX) {
      bestX = x;
      best = layers.map((L) => L.slice());
    }
  }
  for (let r = 0; r < ranks; r++) layers[r] = best[r];
  setPos();

  // 6. x: per rank, each node wants the mean x of its heaviest neighbours in the rank just placed;
  // solved as weighted isotonic regression (order kept, minimum gaps), alternating down and up
  const width = (v: number): number => (isPoint[v] ? 0 : nodes[v].w);
  const gap = (a: number, b: number): number =>
    (width(a) + width(b)) / 2 + (isPoint[a] || isPoint[b] ? POINTSEP : NODESEP);
  // ops barely move for a long edge or a side input, so a chain does not drift rank by rank
  const heft = (v: number): number => (isPoint[v] ? 1 : side(v) ? 0.25 : 1e6);
  const x = new Float64Array(total);
  for (const L of layers) {
    let cx = 0;
    L.forEach((v, i) => {
      if (i) cx += gap(L[i - 1], v);
      x[v] = cx;
    });
  }
  for (let pass = 0; pass < PLACE_PASSES; pass++) {
    const downward = pass % 2 === 0;
    for (let k = 0; k < ranks; k++) {
      const L = layers[downward ? k : ranks - 1 - k];
      const want = L.map((v) => {
        const nb = downward ? up[v] : down[v];
        let top = 0;
        for (const [, w] of nb) top = Math.max(top, w);
        if (!top) return x[v];
        let s = 0;
        let c = 0;
        for (const [u, w] of nb)
          if (w === top) {
            s += x[u];
            c += 1;
          }
        return s / c;
      });
      place(
        L,
        want,
        L.map(heft),
        (i) => gap(L[i - 1], L[i]),
        (i, v) => {
          x[L[i]] = v;
        },
      );
    }
  }

  // 7. y by rank; normalise to the top-left corner
  const rankH = new Float64Array(ranks);
  for (let v = 0; v < n; v++) rankH[rank[v]] = Math.max(rankH[rank[v]], nodes[v].h);
  const rankTop = new Float64Array(ranks);
  for (let r = 1; r < ranks; r++) rankTop[r] = rankTop[r - 1] + rankH[r - 1] + RANKSEP;
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  for (let v = 0; v < total; v++) {
    minX = Math.min(minX, x[v] - width(v) / 2);
    maxX = Math.max(maxX, x[v] + width(v) / 2);
  }
  if (!Number.isFinite(minX)) minX = maxX = 0;
  const pos: Record<string, [number, number]> = {};
  for (let v = 0; v < n; v++) pos[nodes[v].id] = [x[v] - minX, rankTop[rank[v]] + rankH[rank[v]] / 2];
  const height = ranks ? rankTop[ranks - 1] + rankH[ranks - 1] : 0;

  // 8. routes: bottom of the source, down through each rank crossed (vertical inside it), top of the target
  const routeOf = (e: number): Array<[number, number]> => {
    const chain = chainOf[e];
    const a = chain[0];
    const b = chain[chain.length - 1];
    const pts: Array<[number, number]> = [[pos[nodes[a].id][0], pos[nodes[a].id][1] + nodes[a].h / 2]];
    for (let i = 1; i + 1 < chain.length; i++) {
      const p = chain[i];
      const px = x[p] - minX;
      pts.push([px, rankTop[lrank[p]]], [px, rankTop[lrank[p]] + rankH[lrank[p]]]);
    }
    pts.push([pos[nodes[b].id][0], pos[nodes[b].id][1] - nodes[b].h / 2]);
    return reversed[e] ? pts.reverse() : pts;
  };
  const routes = edgeOf.map((e) => (e < 0 ? [] : routeOf(e)));
  return { pos, width: Math.max(0, maxX - minX), height, routes };
}

/** Weighted isotonic regression with minimum gaps (pool adjacent violators): x[i] - x[i-1] ≥ gap(i),
 * minimising Σ w (x - want)². O(length of the rank). */
function place(
  L: number[],
  want: number[],
  w: number[],
  gap: (i: number) => number,
  set: (i: number, x: number) => void,
): void {
  // shift out the gaps: y_i = x_i - off_i must be non-decreasing
  const off = new Float64Array(L.length);
  for (let i = 1; i < L.length; i++) off[i] = off[i - 1] + gap(i);
  const blockVal: number[] = [];
  const blockW: number[] = [];
  const blockN: number[] = [];
  for (let i = 0; i < L.length; i++) {
    let v = want[i] - off[i];
    let ww = w[i];
    let cnt = 1;
    while (blockVal.length && blockVal[blockVal.length - 1] > v) {
      const pw = blockW.pop()!;
      const pv = blockVal.pop()!;
      v = (pv * pw + v * ww) / (pw + ww);
      ww += pw;
      cnt += blockN.pop()!;
    }
    blockVal.push(v);
    blockW.push(ww);
    blockN.push(cnt);
  }
  let i = 0;
  for (let b = 0; b < blockVal.length; b++) for (let k = 0; k < blockN[b]; k++, i++) set(i, blockVal[b] + off[i]);
}

/** Crossings between adjacent ranks (accumulator tree, Barth–Jünger–Mutzel). */
function crossings(layers: number[][], down: Array<Array<[number, number]>>, posIn: Float64Array): number {
  let total = 0;
  for (let r = 0; r + 1 < layers.length; r++) {
    const south = layers[r + 1].length;
    if (!south) continue;
    const ends: number[] = [];
    for (const v of layers[r]) {
      const s = down[v].map(([u]) => posIn[u]).sort((a, b) => a - b);
      for (const p of s) ends.push(p);
    }
    let first = 1;
    while (first < south) first *= 2;
    const tree = new Int32Array(2 * first - 1);
    first -= 1;
    for (const p of ends) {
      let idx = p + first;
      tree[idx] += 1;
      while (idx > 0) {
        if (idx % 2) total += tree[idx + 1];
        idx = (idx - 1) >> 1;
        tree[idx] += 1;
      }
    }
  }
  return total;
}
