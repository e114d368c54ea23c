// Colours for a pane's optional per-node overlay (View.panes[].overlay): red = worst, green = best of the
// values given, in the direction the JSON says (higher_is_better). Nodes without a value stay uncoloured.
import { fmtNum } from './dom';
import type { Id, Overlay } from './types';

export interface Heat {
  overlay: Overlay;
  min: number;
  max: number;
  /** colour and text for a node, or null when the overlay has no value for it */
  of(id: Id): { color: string; text: string } | null;
  /** the node's value (±Infinity kept), or null */
  value(id: Id): number | null;
}

export function heatColor(goodness: number): string {
  const g = Math.max(0, Math.min(1, goodness));
  return `hsl(${Math.round(g * 120)}, 72%, 42%)`;
}

/** The same hue with the theme's lightness (--pl-heat-l), so the bar keeps its contrast in a dark theme. */
export function heatStyle(color: string): string {
  const hue = /hsl\((\d+)/.exec(color)?.[1] ?? '0';
  return `fill:hsl(${hue} 72% var(--pl-heat-l))`;
}

/** An overlay value as a number: the contract writes ±Infinity / NaN as strings (NonFinite); NaN → null. */
export function overlayNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v === 'Infinity') return Number.POSITIVE_INFINITY;
  if (v === '-Infinity') return Number.NEGATIVE_INFINITY;
  return null;
}

function fmtValue(v: number): string {
  return Number.isFinite(v) ? fmtNum(v) : v > 0 ? '∞' : '−∞';
}

export function makeHeat(overlay: Overlay | null | undefined): Heat | null {
  if (!overlay || typeof overlay.values !== 'object' || overlay.values === null) return null;
  const all = Object.values(overlay.values)
    .map(overlayNumber)
    .filter((v): v is number => v !== null);
  if (!all.length) return null;
  // the colour scale spans the finite values; an exact match (SQNR ∞) is simply the best end
  const vals = all.filter(Number.isFinite);
  const min = vals.length ? Math.min(...vals) : 0;
  const max = vals.length ? Math.max(...vals) : 0;
  const unit = overlay.unit ? ` ${overlay.unit}` : '';
  return {
    overlay,
    min,
    max,
    value: (id: Id) => overlayNumber(overlay.values[id]),
    of(id: Id) {
      const v = overlayNumber(overlay.values[id]);
      if (v === null) return null;
      const t = !Number.isFinite(v) ? (v > 0 ? 1 : 0) : max > min ? (v - min) / (max - min) : 1;
      return { color: heatColor(overlay.higher_is_better ? t : 1 - t), text: `${overlay.name}: ${fmtValue(v)}${unit}` };
    },
  };
}
