// No text of the details drawer runs past its edge (issue 15 point 7, as a helper saw "ConvQuantizer" do at 260 px
// in a notebook): every text node's boxes lie inside the drawer's content box, and nothing scrolls sideways. The
// view gives a compute node and an observer long names with no `_` or `.` to break at, in zh-TW. The same check
// for the static report (narrow.test.mjs) and a JupyterLab notebook output (narrow.lab.mjs).
import assert from 'node:assert/strict';

const LONG = 'ConvQuantizerComposableX86InductorQuantizerLinearQuantizer';

/** `view` (conv_prepared) in zh-TW with long unbreakable names on conv2d and its input observer, and their ids */
export function longNames(view) {
  view.locale = 'zh-TW';
  const snap = view.panes[0].snapshot;
  const conv = snap.nodes.find((n) => n.id === 'conv2d');
  conv.module_path = `features${LONG}`;
  conv.module_stack = [
    ['features', 'BlockWithAnExtraordinarilyLongClassNameAndNoBreakPoints'],
    [conv.module_path, 'Conv2dBlockWithAnExtraordinarilyLongName'],
  ];
  conv.source = `averyveryverylongfilenamewithoutanybreakpointsatall${LONG}py:12`;
  conv.why = [`${LONG} 看過 conv2d 並略過它`, `ComposableQuantizer→${LONG}：沒有規則符合這個運算`];
  const ann = snap.annotations.find((a) => a.node === 'conv2d');
  ann.quantizer = LONG;
  ann.skipped_by = [LONG, `Another${LONG}`];
  const obs = snap.observers[0];
  obs.class = `HistogramObserver${LONG}`;
  obs.names = [`activationpostprocess${LONG}`];
  return { view, ids: ['conv2d', obs.nodes[0]] };
}

/** The drawer of `root`'s first pane shows a node: no text of it past its content box, no sideways scroll. */
export async function checkDrawerFits(root) {
  const r = await root
    .locator('.pl-drawer')
    .first()
    .evaluate((d) => {
      const b = d.getBoundingClientRect();
      const left = b.left + d.clientLeft;
      const right = left + d.clientWidth;
      const out = [];
      const walk = d.ownerDocument.createTreeWalker(d, NodeFilter.SHOW_TEXT);
      let texts = 0;
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (!n.textContent.trim()) continue;
        texts++;
        const range = d.ownerDocument.createRange();
        range.selectNodeContents(n);
        for (const q of range.getClientRects())
          if (q.width > 0 && (q.left < left - 0.5 || q.right > right + 0.5))
            out.push(
              `"${n.textContent.slice(0, 40)}" at ${q.left.toFixed(0)}…${q.right.toFixed(0)} in ${left}…${right}`,
            );
      }
      return { out, texts, scroll: d.scrollWidth - d.clientWidth, hidden: d.hidden };
    });
  assert.equal(r.hidden, false, 'the drawer is open');
  assert.ok(r.texts > 10, `${r.texts} text nodes checked`);
  assert.deepEqual(r.out, [], 'text past the drawer edge');
  assert.ok(r.scroll <= 0, `the drawer scrolls ${r.scroll} px sideways`);
}
