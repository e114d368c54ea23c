// Issue 15 point 5, "the legend's range equal to the table's", checked the same way wherever a heat overlay is drawn
// (static report, JupyterLab output): the two ends the heat legend prints are the lowest and the highest SQNR of the
// accuracy table's column, as its cells show them, every value rounded to two decimals. (An input-edge q/dq row
// colours that q/dq's dequantize node, so every row with a value is on the graph.)
import assert from 'node:assert/strict';

const VALUE = /^(−?∞|-?\d+\.\d{2})$/;
const num = (s) => (s === '∞' ? Infinity : s === '−∞' ? -Infinity : Number(s));

/** The check on the output `root` (a Locator of one `.pt2e-lens`); leaves its first tab (the graph) on show. */
export async function checkHeatRange(root) {
  const legend = (await root.locator('.pl-heat-legend').first().textContent()).trim();
  const ends = legend.match(/:\s*(\S+)\s+(\S+)\s*·/);
  assert.ok(ends, `legend "${legend}"`);
  const tabs = root.locator('.pl-main-tabs .pl-tab');
  const wrap = root.locator('.pl-table-wrap[data-table="accuracy"]');
  for (let i = 1; i < (await tabs.count()) && !(await wrap.isVisible()); i++) await tabs.nth(i).click();
  const rows = await wrap.evaluate((w) => {
    const col = (key) => [...w.querySelectorAll('thead th')].findIndex((th) => th.dataset.key === key);
    const [node, sqnr] = [col('node'), col('sqnr_db')];
    return [...w.querySelectorAll('tbody tr')].map((tr) => [
      tr.children[node].textContent.trim(),
      tr.children[sqnr].textContent.trim(),
    ]);
  });
  await tabs.first().click();
  for (const [, c] of rows) if (c) assert.match(c, VALUE, 'two decimals in the table');
  const cells = rows.filter(([, c]) => c).map(([, c]) => c);
  assert.ok(cells.length > 2, `${cells.length} rows with a value`);
  for (const e of ends.slice(1)) assert.match(e, VALUE, 'two decimals in the legend');
  const sorted = cells.slice().sort((a, b) => num(a) - num(b));
  assert.deepEqual([ends[1], ends[2]], [sorted[0], sorted.at(-1)], `legend "${legend}" vs table ${sorted.join(' ')}`);
}
