// Brief point 3, checked alike in the static report and the side panel: zoomed out, every closed group on show has
// a title (semantic zoom), no two titles overlap, a title reaching past its own box covers no other closed group,
// and what a title says is the beginning of the group's own label (shortened with …, never something else).
import assert from 'node:assert/strict';

/** The closed groups of the SVG in `root` (a playwright locator) with their zoom titles' text and rectangles. */
export function closedTitles(root) {
  return root.evaluate((el) => {
    const svg = [...el.querySelectorAll('svg')].find(
      (s) => s.querySelector('.pl-group') && s.getBoundingClientRect().width > 0,
    );
    const rect = (e) => e.getBoundingClientRect().toJSON();
    return [...svg.querySelectorAll('.pl-group.pl-collapsed')].map((g) => {
      const z = svg.querySelector(`.pl-zlabel-closed[data-group="${CSS.escape(g.dataset.group)}"]`);
      return {
        key: g.dataset.group,
        label: g.querySelector('.pl-glabel').textContent,
        box: rect(g.querySelector('rect.pl-gbox')),
        text: z?.querySelector('text').textContent ?? null,
        plate: z ? rect(z.querySelector('rect')) : null,
      };
    });
  });
}

export function checkClosedTitles(titles, least) {
  assert.ok(titles.length >= least, `closed groups: ${titles.length}`);
  const meets = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  for (const t of titles) assert.ok(t.text, `${t.key} has a title`);
  for (const t of titles) {
    const shown = t.text.replace(/…$/, '');
    assert.ok(shown.length >= 3 && t.label.replace(/…$/, '').startsWith(shown), JSON.stringify(t));
    for (const o of titles) {
      if (o === t) continue;
      assert.ok(!meets(t.plate, o.plate), `the titles of ${t.key} and ${o.key} overlap`);
      assert.ok(!meets(t.plate, o.box), `${t.key}'s title covers ${o.key}`);
    }
  }
}
