// Brief point 3's other half: where Fit cannot show a graph's whole width readably (more than a few columns in a
// narrow pane), each side with drawing beyond the view's edge says so with a small button at that edge
// ("◂ more" / "more ▸", in its top corner: the edges' boxes are cut there anyway) that pans most of a view's width
// that way; no button where nothing is off-screen.
import { h } from './dom';
import type { Placement } from './hier-layout';
import type { Tr } from './i18n';
import { MARGIN, type PanZoom } from './pan-zoom';

export class EdgeHints {
  private left: HTMLButtonElement;
  private right: HTMLButtonElement;

  constructor(
    doc: Document,
    area: HTMLElement,
    private pz: PanZoom,
    private placement: () => Placement | null,
    t: Tr,
  ) {
    const make = (side: 'left' | 'right', text: string): HTMLButtonElement => {
      const b = h(doc, 'button', {
        type: 'button',
        class: `pl-btn pl-offscreen pl-offscreen-${side}`,
        title: t('ui.offscreen_title'),
        hidden: '',
      });
      b.textContent = text;
      b.addEventListener('click', (e) => {
        e.stopPropagation();
        const [cw, ch] = this.pz.viewSize();
        const k = this.pz.t.k;
        const dx = (side === 'left' ? -0.8 : 0.8) * cw;
        this.pz.panTo((cw / 2 - this.pz.t.x + dx) / k, (ch / 2 - this.pz.t.y) / k);
      });
      // a press on the button is no drag of the drawing
      b.addEventListener('pointerdown', (e) => e.stopPropagation());
      area.appendChild(b);
      return b;
    };
    this.left = make('left', t('ui.offscreen_left'));
    this.right = make('right', t('ui.offscreen_right'));
  }

  /** Show the button of each side the drawing reaches past (called after every change of the view). */
  update(): void {
    const P = this.placement();
    const [cw] = this.pz.viewSize();
    const { k, x } = this.pz.t;
    const slack = (MARGIN / 2) * k;
    const past = P ? { left: x < -slack, right: x + P.width * k > cw + slack } : { left: false, right: false };
    this.left.toggleAttribute('hidden', !past.left);
    this.right.toggleAttribute('hidden', !past.right);
  }
}
