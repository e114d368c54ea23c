// The panel's head line (issue 26.4): stage tabs with no room go into the "⋯" menu, named in full; the tab on show
// stays; a wide line shows every tab and no menu. jsdom lays nothing out: the line's widths are given.
import { describe, expect, it } from 'vitest';
import { translator } from '../../../src/core/i18n';
import { pickerSelect, stageTabs } from '../../../src/lab/panel/head-line';

const STAGES = ['exported', 'annotated', 'prepared', 'calibrated', 'converted'];
const TAB_W = 70;

/** A line `width` px wide whose content is the visible tabs (TAB_W each) and `fixed` px of picker and count. */
function line(width: number, bar: HTMLElement, fixed = 100): HTMLElement {
  const el = document.createElement('div');
  const shown = (): number => [...bar.children].filter((b) => !(b as HTMLElement).hidden).length;
  Object.defineProperty(el, 'clientWidth', { get: () => width });
  Object.defineProperty(el, 'scrollWidth', { get: () => Math.max(width, fixed + shown() * TAB_W) });
  return el;
}

describe('the panel head line', () => {
  it('folds the tabs it has no room for into the menu, keeping the one on show', () => {
    const picked: string[] = [];
    const s = stageTabs(document, translator('en'), STAGES, 'converted', (t) => picked.push(t));
    s.fit(line(250, s.bar));
    const visible = [...s.bar.children].filter((b) => !(b as HTMLElement).hidden).map((b) => b.textContent);
    expect(visible).toEqual(['exported', 'converted']);
    const listed = [...s.menu.options].slice(1).map((o) => o.textContent);
    expect(listed).toEqual(['annotated', 'prepared', 'calibrated']);
    expect(s.menu.hidden).toBe(false);
    expect(s.menu.getAttribute('aria-label')).toBe('more stages');
    s.menu.value = 'prepared';
    s.menu.dispatchEvent(new Event('change'));
    expect(picked).toEqual(['prepared']);
    expect(s.menu.value).toBe(''); // the menu reads "⋯" again
  });

  it('shows every tab and no menu on a wide line', () => {
    const s = stageTabs(document, translator('zh-TW'), STAGES, 'exported', () => undefined);
    s.fit(line(1000, s.bar));
    expect([...s.bar.children].every((b) => !(b as HTMLElement).hidden)).toBe(true);
    expect(s.menu.hidden).toBe(true);
    expect(s.bar.getAttribute('aria-label')).toBe('階段');
  });

  it("the picker's tooltip is its whole choice, after a change too", () => {
    const seen: string[] = [];
    const opts: Array<[string, string]> = [
      ['a', 'newest: run'],
      ['b', 'ep · ExportedProgram · 47 nodes · exported'],
    ];
    const select = pickerSelect(document, 'model', opts, 'a', (v) => seen.push(v));
    expect(select.title).toBe('newest: run');
    select.value = 'b';
    select.dispatchEvent(new Event('change'));
    expect(select.title).toBe('ep · ExportedProgram · 47 nodes · exported');
    expect(seen).toEqual(['b']);
  });
});
