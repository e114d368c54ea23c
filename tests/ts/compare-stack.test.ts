// When a compare's panes stack (compare-stack.ts): below MIN_PANE_WIDTH per pane, never for one pane or a hidden row.
import { describe, expect, it } from 'vitest';
import { MIN_PANE_WIDTH, PANE_GAP, stacksAt, stackWhenNarrow } from '../../src/core/compare-stack';

describe('compare panes stack below two readable panes', () => {
  it('two panes stack below 560 px, three below 844 px; one pane and a hidden row never', () => {
    expect(2 * MIN_PANE_WIDTH + PANE_GAP).toBe(560);
    expect([260, 280, 559].map((w) => stacksAt(w, 2))).toEqual([true, true, true]);
    expect([560, 900, 1300].map((w) => stacksAt(w, 2))).toEqual([false, false, false]);
    expect([stacksAt(843, 3), stacksAt(844, 3)]).toEqual([true, false]);
    expect([stacksAt(200, 1), stacksAt(0, 2)]).toEqual([false, false]);
  });

  it('the row gets pl-narrow from its width, and loses it when wide', () => {
    const row = document.createElement('div');
    let width = 260;
    row.getBoundingClientRect = () => ({ width }) as DOMRect;
    let changes = 0;
    stackWhenNarrow(row, 2, () => changes++)();
    expect(row.classList.contains('pl-narrow')).toBe(true);
    width = 1300;
    stackWhenNarrow(row, 2, () => changes++)();
    expect(row.classList.contains('pl-narrow')).toBe(false);
    expect(changes).toBe(2);
  });
});
