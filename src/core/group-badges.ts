// A view's closed-group badges, made once per group.
import { type Badge, badgesOf, type Summary } from './badges';
import type { Heat } from './heat';
import type { Tr } from './i18n';

/** The badges of each group of one view, made once per group (its summary, overlay and words do not change while
 * the view lives): the layout's closed-group size, the SVG-or-canvas weight of every redraw and the painters' box
 * model all ask for them, each redraw again. */
export class GroupBadges {
  private memo = new Map<string, Badge[]>();
  constructor(
    private summary: Map<string, Summary> | undefined,
    private heat: Heat | null,
    private t: Tr,
  ) {}

  /** the badges of group `key` (none for a group without a summary) */
  of(key: string): Badge[] {
    let bs = this.memo.get(key);
    if (!bs) {
      const s = this.summary?.get(key);
      bs = s ? badgesOf(s, this.heat, this.t) : [];
      this.memo.set(key, bs);
    }
    return bs;
  }
}
