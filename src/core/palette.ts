// The one palette: every colour a view uses, for a light and a dark theme. Each colour has one meaning
// (listed in the legend); styles.ts turns a theme into `--pl-*` custom properties. Pure data + contrast
// arithmetic, so tests can check WCAG contrast over all of it.
import type { Role } from './types';

export interface RoleColor {
  fill: string;
  stroke: string;
  text: string;
}

export interface Theme {
  /** output background (a host's own background wins: --jp-layout-color0, --vscode-editor-background) */
  bg: string;
  /** graph canvas background */
  canvas: string;
  fg: string;
  muted: string;
  border: string;
  /** raised surfaces: tabs, table heads, drawer */
  raised: string;
  btn: string;
  btnHover: string;
  roles: Record<Role, RoleColor>;
  /** second line of a node, on any role fill */
  sub: string;
  edge: string;
  /** int8 tensors: edges out of quantize, into dequantize (incl. frozen int8 weights) */
  int: string;
  /** frames: removed by the next stage (dashed), added by this stage (the course's 綠框, a green frame) */
  removed: string;
  added: string;
  match: string;
  selected: string;
  /** closed group box */
  groupFill: string;
  groupStroke: string;
  /** observer sharing groups (observers[].group): apart from each other and from quantize / dequantize / output
   * fills by CIEDE2000 (tests/ts/palette.test.ts). Twelve is about what ΔE2000 ≥ 12 leaves at a lightness the
   * labels stay readable on; past them the fills repeat and the group number chip on the box (box-model.ts)
   * tells groups apart. */
  groups: string[];
  /** quantization specs (edges, output badges) */
  specs: string[];
  /** badges, notes and findings that want attention (fp32 islands) */
  warn: string;
  warnBg: string;
  noteBg: string;
  /** lightness of the overlay heat colours (hsl) */
  heatL: number;
  /** node fill of an overlay value (e.g. SQNR): worst, middle, best stops, interpolated in OKLab (heat.ts) */
  heatFill: [string, string, string];
}

export const LIGHT: Theme = {
  bg: '#ffffff',
  canvas: '#fcfcfd',
  fg: '#1e293b',
  muted: '#526071',
  border: '#cbd5e1',
  raised: '#f1f5f9',
  btn: '#f8fafc',
  btnHover: '#e2e8f0',
  roles: {
    input: { fill: '#dbeafe', stroke: '#1d4ed8', text: '#1e3a8a' },
    param: { fill: '#eef2f6', stroke: '#64748b', text: '#334155' },
    compute: { fill: '#e0e7ff', stroke: '#3909a5', text: '#1e1b4b' },
    observer: { fill: '#ccfbf1', stroke: '#0f766e', text: '#134e4a' },
    quantize: { fill: '#fce7f3', stroke: '#be185d', text: '#831843' },
    dequantize: { fill: '#dcfce7', stroke: '#224f25', text: '#14532d' },
    output: { fill: '#f1e7dd', stroke: '#5c3123', text: '#4a2a0e' },
  },
  sub: '#3b4757',
  edge: '#7b8898',
  int: '#7c3aed',
  removed: '#b91c1c',
  added: '#15803d',
  match: '#0891b2',
  selected: '#0f172a',
  groupFill: '#f1f5f9',
  groupStroke: '#64748b',
  groups: [
    '#7de8ad',
    '#eea0b3',
    '#e8bb7d',
    '#a8baf0',
    '#c4e87d',
    '#dba0ee',
    '#7dcde8',
    '#d1b3a9',
    '#afb9a0',
    '#ff9b6e',
    '#faf0c3',
    '#c3b946',
  ],
  specs: ['#1d4ed8', '#7e22ce', '#0e7490', '#be123c', '#4d7c0f', '#a21caf', '#b45309', '#15803d'],
  warn: '#854d0e',
  warnBg: '#fefce8',
  noteBg: '#fffbeb',
  heatL: 30,
  heatFill: ['#fcaeae', '#fbe3a0', '#e4f6ea'],
};

export const DARK: Theme = {
  bg: '#1e1e1e',
  canvas: '#181a1f',
  fg: '#e2e8f0',
  muted: '#a3adbb',
  border: '#475264',
  raised: '#262a31',
  btn: '#2d333b',
  btnHover: '#3b4350',
  roles: {
    input: { fill: '#1e3a5f', stroke: '#60a5fa', text: '#dbeafe' },
    param: { fill: '#2a3038', stroke: '#94a3b8', text: '#e2e8f0' },
    compute: { fill: '#2b2d5c', stroke: '#818cf8', text: '#e0e7ff' },
    observer: { fill: '#123f3a', stroke: '#2dd4bf', text: '#ccfbf1' },
    quantize: { fill: '#4a1632', stroke: '#f472b6', text: '#fce7f3' },
    dequantize: { fill: '#14402a', stroke: '#46a145', text: '#dcfce7' },
    output: { fill: '#3d2a1a', stroke: '#d6a36e', text: '#f5e6d3' },
  },
  sub: '#cbd5e1',
  edge: '#8895a7',
  int: '#d9a8ff',
  removed: '#f87171',
  added: '#4ade80',
  match: '#22d3ee',
  selected: '#f8fafc',
  groupFill: '#262a31',
  groupStroke: '#94a3b8',
  groups: [
    '#13636c',
    '#931a42',
    '#795015',
    '#090934',
    '#1a5793',
    '#751a93',
    '#455f11',
    '#24260d',
    '#2d0f0a',
    '#af2305',
    '#5a4b5f',
    '#002d3c',
  ],
  specs: ['#60a5fa', '#c084fc', '#2dd4bf', '#fb7185', '#a3e635', '#e879f9', '#fbbf24', '#4ade80'],
  warn: '#facc15',
  warnBg: '#3a3214',
  noteBg: '#2e2a1c',
  heatL: 60,
  heatFill: ['#8f1d1d', '#594410', '#1d3328'],
};

// ---- WCAG 2 contrast ------------------------------------------------------------------------------

export function hexRgb(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const v = Number.parseInt(m[1], 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** hsl (degrees, percent, percent) → rgb 0..255 */
export function hslRgb(h: number, s: number, l: number): [number, number, number] {
  const S = s / 100;
  const L = l / 100;
  const a = S * Math.min(L, 1 - L);
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (L - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

export function luminance([r, g, b]: [number, number, number]): number {
  const c = (x: number): number => {
    const v = x / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
}

export function contrast(a: string | [number, number, number], b: string | [number, number, number]): number {
  const la = luminance(typeof a === 'string' ? hexRgb(a) : a);
  const lb = luminance(typeof b === 'string' ? hexRgb(b) : b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Heat hue for a goodness in [0, 1]: red (worst) → green (best). */
export function heatHue(goodness: number): number {
  return Math.round(Math.max(0, Math.min(1, goodness)) * 120);
}
