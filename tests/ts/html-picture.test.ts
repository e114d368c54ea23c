// The text/html fallback carries the static picture (issue 18.2): the JupyterLab renderer puts what it drew into
// the fallback Python wrote, and a later picture replaces the earlier one.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasPicture, htmlWithPicture } from '../../src/core/html-picture';

const ROOT = join(__dirname, '../..');
const PYTHON = process.env.PT2E_LENS_PYTHON ?? join(ROOT, '.venv', 'bin', 'python');

/** Real fallbacks, as pt2e_lens.display writes them (zh-TW, so the mount point says lang): without a picture
 * and with each given one (one Python run: importing pt2e_lens takes a while). */
function fallbacks(pictures: (string | null)[]): string[] {
  const code = [
    'import sys, json',
    'from pt2e_lens.display import html_fragment',
    'from pt2e_lens.views import table_view',
    'from pt2e_lens.analyses.table import Table',
    'from pt2e_lens import i18n',
    'with i18n.using("zh-TW"): v = table_view([Table("t", ["a"], [[1]])])',
    'print(json.dumps([html_fragment(v, picture=p, viewer=False) for p in json.loads(sys.argv[1])]))',
  ].join('\n');
  const env = { ...process.env, PYTHONPATH: join(ROOT, 'kernel_pkg') };
  return JSON.parse(execFileSync(PYTHON, ['-c', code, JSON.stringify(pictures)], { env }).toString('utf8'));
}

const SVG_A = '<svg xmlns="http://www.w3.org/2000/svg"><title>a</title></svg>';
const SVG_B = '<svg xmlns="http://www.w3.org/2000/svg"><title>b</title><g/></svg>';

describe('the picture in text/html', () => {
  let plain = '';
  let withA = '';
  beforeAll(() => {
    [plain, withA] = fallbacks([null, SVG_A]);
  }, 180_000);

  it('goes after the summary of a fallback that has none, before its tables', () => {
    const html = plain;
    const out = htmlWithPicture(html, SVG_A) as string;
    expect(out).not.toBeNull();
    const doc = new DOMParser().parseFromString(out, 'text/html');
    const root = doc.querySelector('.pt2e-lens-root') as Element;
    expect(root.getAttribute('lang')).toBe('zh-TW');
    // (the fallback's one <style> for its table cells sits before the tables: not a part the picture goes between)
    const parts = [...root.children].map((e) => e.localName).filter((n) => n !== 'style');
    expect(parts).toEqual(['p', 'div', 'table']);
    expect(root.querySelector('.pt2e-lens-picture > svg title')?.textContent).toBe('a');
    expect(hasPicture(out, SVG_A)).toBe(true);
  });

  it('replaces the one Python or an earlier render put there, and leaves other HTML alone', () => {
    const out = htmlWithPicture(withA, SVG_B) as string;
    expect(out.match(/pt2e-lens-picture/g)).toHaveLength(1);
    expect(hasPicture(out, SVG_B) && !out.includes('<title>a</title>')).toBe(true);
    expect(htmlWithPicture('<p>not ours</p>', SVG_A)).toBeNull();
  });
});
