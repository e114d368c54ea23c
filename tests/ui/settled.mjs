// Waiting on the views' ready signal (docs/frontend.md, "Ready signal"), never on time: each graph pane's drawing
// (the element with `data-nodes`: its SVG, or its canvas) carries `data-settled="N"`, one higher each time all the
// work a change started (layout, fit, paint, search, expand, selection, theme, size) is painted, and `data-busy`
// while such work is under way. A test reads N, acts, then waits for a higher N and no `data-busy`.
// No timeout of our own: Playwright's waits here have timeout 0 and end with the test framework's limit
// (`--test-timeout` in package.json: per file, 30 min for the browser tests, 60 for lab and host tests), however
// slow the machine.

/** In the page: the panes (`.pl-graph`) at, around or under `els`, each as its count and whether it is busy (both
 * drawings of a pane carry one count). `want` null: those states; 'idle': every pane settled once and not busy;
 * an array of counts: every pane past its count and not busy. */
function panes([els, want]) {
  if (els.some((e) => !e.isConnected)) return 'stale'; // the view was drawn anew under us: read it again
  const ps = new Set();
  for (const e of els) {
    const own = e.closest('.pl-graph');
    for (const p of own ? [own] : e.querySelectorAll('.pl-graph')) ps.add(p);
  }
  const states = [];
  for (const p of ps) {
    const ds = [...p.querySelectorAll('[data-settled]')];
    if (!ds.length) continue; // an empty graph draws nothing
    const n = Math.max(...ds.map((d) => Number(d.getAttribute('data-settled'))));
    states.push({ n, busy: ds.some((d) => d.hasAttribute('data-busy')) });
  }
  if (want === null) return states;
  if (want === 'idle') return states.every((s) => s.n >= 1 && !s.busy);
  return states.length === want.length && states.every((s, i) => s.n > want[i] && !s.busy);
}

/** The elements `target` (a Locator of view roots, panes or drawings) matches, once at least one does, and the
 * frame they are in (a VS Code output webview's, or the page's own): the waits run there. A view may be replaced
 * between the wait and the read (a re-render): then wait for its successor. */
async function handles(target) {
  for (;;) {
    await target.first().waitFor({ state: 'attached', timeout: 0 });
    const els = await target.elementHandles();
    if (els.length) return { els, frame: await els[0].ownerFrame() };
  }
}

/** Wait in the page until `panes(els, want)` holds for what `target` matches now. If the elements were replaced
 * meanwhile (a re-render: new panes, counts from 1), wait until the new ones are idle instead. */
async function until(target, want) {
  for (;;) {
    const { els, frame } = await handles(target);
    const done = await frame.waitForFunction(panes, [els, want], { timeout: 0 });
    if ((await done.jsonValue()) !== 'stale') return { els, frame };
    want = 'idle';
  }
}

/** Until every pane under `target` has settled at least once (its first layout and paint) and has no work under
 * way. A view of tables only has no pane: nothing to wait for. */
export async function idle(_page, target) {
  await until(target, 'idle');
}

/** Wait until the panes under `target` are idle, read their counts, run `action`, and wait until each has settled
 * past its count with no work under way; returns `action`'s result. Give as `target` the panes the action changes:
 * a pane it leaves alone never settles again (in a compare, a selection, a zoom and a group's toggle reach every
 * pane; a search only its own). */
export async function settled(_page, target, action) {
  for (;;) {
    const { els, frame } = await until(target, 'idle');
    const states = await frame.evaluate(panes, [els, null]);
    if (states === 'stale') continue;
    const out = await action();
    // the same elements past their counts; if the action drew the view anew, its new panes idle
    const done = await frame.waitForFunction(panes, [els, states.map((st) => st.n)], { timeout: 0 });
    if ((await done.jsonValue()) === 'stale') await idle(_page, target);
    return out;
  }
}

/** The pane (`.pl-graph`) that holds the element `loc` points at (a search box, a toolbar button): the one pane an
 * action on it changes. */
export const paneOf = (loc) => loc.locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " pl-graph ")][1]');

/** Once the page has rendered the next frame: the layout a DOM change set off is done and its ResizeObservers have
 * run (a pane they re-fit is busy by then). A wait on frames, not on time. */
export const afterFrame = (frame) =>
  frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

/** Run `action` (a size change: an output's width, the viewport), then wait until what it set off is drawn: the
 * panes under `target` re-fit and painted. A pane the user moved keeps its view on a resize and does no work; so
 * this waits for idle, not for a higher count. */
export async function resized(page, target, action) {
  const out = await action();
  const { frame } = await handles(target);
  await afterFrame(frame);
  await idle(page, target);
  return out;
}
