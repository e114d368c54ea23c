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

export function makeHeat(overlay: Overlay | null | undefined): Heat | null {
  if (!overlay || typeof overlay.values !== 'object' || overlay.values === null) return null;
  const vals = Object.values(overlay.values).filter((v) => typeof v === 'number' && Number.isFinite(v));
  if (!vals.length) return null;
  const min = Math.min(...vals);
  const max = Math.max(...vals);
  const unit = overlay.unit ? ` ${overlay.unit}` : '';
  return {
    overlay,
    min,
    max,
    of(id: Id) {
      const v = overlay.values[id];
      if (typeof v !== 'number' || !Number.isFinite(v)) return null;
      const t = max > min ? (v - min) / (max - min) : 1;
      return { color: heatColor(overlay.higher_is_better ? t : 1 - t), text: `${overlay.name}: ${fmtNum(v)}${unit}` };
    },
  };
}
