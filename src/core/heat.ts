// Colours for a pane's optional per-node overlay (View.panes[].overlay): red = worst, green = best of the
// values given, in the direction the JSON says (higher_is_better). Nodes without a value stay uncoloured.
import { DARK, hexRgb, LIGHT } from './palette';
import type { Id, Overlay } from './types';

type V3 = [number, number, number];

// sRGB ↔ OKLab (Ottosson 2020): steps of the fill scale look equally far apart
const lin = (x: number): number => {
  const c = x / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const gam = (c: number): number =>
  Math.round(255 * Math.max(0, Math.min(1, c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055)));

function oklab(hex: string): V3 {
  const [r, g, b] = hexRgb(hex).map(lin);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

function rgbHex([L, A, B]: V3): string {
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  const rgb = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ].map(gam);
  return `#${rgb.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
}

/** Node fill for a goodness in [0, 1] (0 = worst) on a theme's stops, interpolated in OKLab. */
export function heatFill(stops: [string, string, string], goodness: number): string {
  const g = Math.max(0, Math.min(1, goodness)) * 2;
  const i = g >= 1 ? 1 : 0;
  const [a, b] = [oklab(stops[i]), oklab(stops[i + 1])];
  const t = g - i;
  return rgbHex([0, 1, 2].map((k) => a[k] + (b[k] - a[k]) * t) as V3);
}

/** An overlay value as text: two decimals (what the accuracy table shows too), ±∞ as symbols. */
export function fmtValue(v: number): string {
  return Number.isFinite(v) ? v.toFixed(2) : v > 0 ? '∞' : '−∞';
}

export interface Heat {
  overlay: Overlay;
  min: number;
  max: number;
  /** colour, node fills (light, dark theme), text and goodness (0 = worst … 1 = best) for a node, or null when the overlay has no value for it */
  of(id: Id): { color: string; light: string; dark: string; text: string; goodness: number } | null;
  /** the node's value (±Infinity kept), or null */
  value(id: Id): number | null;
}

export function heatColor(goodness: number): string {
  const g = Math.max(0, Math.min(1, goodness));
  return `hsl(${Math.round(g * 120)}, 72%, 42%)`;
}

/** An overlay value as a number: the contract writes ±Infinity / NaN as strings (NonFinite); NaN → null. */
export function overlayNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v === 'Infinity') return Number.POSITIVE_INFINITY;
  if (v === '-Infinity') return Number.NEGATIVE_INFINITY;
  return null;
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
      const good = overlay.higher_is_better ? t : 1 - t;
      return {
        color: heatColor(good),
        light: heatFill(LIGHT.heatFill, good),
        dark: heatFill(DARK.heatFill, good),
        text: `${overlay.name}: ${fmtValue(v)}${unit}`,
        goodness: good,
      };
    },
  };
}
