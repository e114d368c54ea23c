// Brief point 3's other half: where Fit cannot show a graph whole readably (more than a few columns in a narrow
// pane, more rows than a pane grows to), each side with drawing beyond the view's edge says so with a small button
// at that edge ("◂ more" / "more ▸" in its top corners: the edges' boxes are cut there anyway; "more ▾" in the
// bottom right corner, the minimap's at the left; "▴ more" at the top's middle) that pans most of a view's width
// or height that way; no button where nothing is off-screen.
import { h } from './dom';
import type { Placement } from './hier-layout';
import type { Tr } from './i18n';
import { MARGIN, type PanZoom } from './pan-zoom';

type Side = 'left' | 'right' | 'up' | 'down';
const SIDES: readonly Side[] = ['left', 'right', 'up', 'down'];

export class EdgeHints {
  private buttons: Record<Side, HTMLButtonElement>;

  constructor(
    doc: Document,
    area: HTMLElement,
    private pz: PanZoom,
    private placement: () => Placement | null,
    t: Tr,
  ) {
    const make = (side: Side): HTMLButtonElement => {
      const b = h(doc, 'button', {
        type: 'button',
        class: `pl-btn pl-offscreen pl-offscreen-${side}`,
        title: t('ui.offscreen_title'),
        hidden: '',
      });
      b.textContent = t(`ui.offscreen_${side}`);
      b.addEventListener('click', (e) => {
        e.stopPropagation();
        const [cw, ch] = this.pz.viewSize();
        const k = this.pz.t.k;
        const dx = side === 'left' ? -0.8 * cw : side === 'right' ? 0.8 * cw : 0;
        const dy = side === 'up' ? -0.8 * ch : side === 'down' ? 0.8 * ch : 0;
        this.pz.panTo((cw / 2 - this.pz.t.x + dx) / k, (ch / 2 - this.pz.t.y + dy) / k);
      });
      // a press on the button is no drag of the drawing
      b.addEventListener('pointerdown', (e) => e.stopPropagation());
      area.appendChild(b);
      return b;
    };
    this.buttons = { left: make('left'), right: make('right'), up: make('up'), down: make('down') };
  }

  /** Show the button of each side the drawing reaches past (called after every change of the view). */
  update(): void {
    const P = this.placement();
    const [cw, ch] = this.pz.viewSize();
    const { k, x, y } = this.pz.t;
    const slack = (MARGIN / 2) * k;
    const past: Record<Side, boolean> = P
      ? { left: x < -slack, right: x + P.width * k > cw + slack, up: y < -slack, down: y + P.height * k > ch + slack }
      : { left: false, right: false, up: false, down: false };
    for (const s of SIDES) this.buttons[s].toggleAttribute('hidden', !past[s]);
  }
}
