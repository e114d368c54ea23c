// @vitest-environment node
// (no DOM here: the node environment spares this file the set-up of jsdom)
// WCAG contrast over the whole palette, in both themes: text ≥ 4.5:1, marks ≥ 3:1 against what they sit on.
import { describe, expect, it } from 'vitest';
import { heatFill } from '../../src/core/heat';
import { contrast, DARK, heatHue, hexRgb, hslRgb, LIGHT, type Theme } from '../../src/core/palette';
import { GROUP_COLORS } from '../../src/core/styles';
import { ROLES } from '../../src/core/types';
import { deltaE2000, deltaE2000Lab } from './ciede2000.mjs';

// canvases the graph is drawn on: ours, and the hosts' own backgrounds (JupyterLab, VS Code default themes)
const CANVASES = {
  light: ['#ffffff', '#fcfcfd', '#f3f3f3'],
  dark: ['#111111', '#181a1f', '#1e1e1e', '#252526'],
};

function checks(t: Theme, canvases: string[]): Array<[string, number, number]> {
  const out: Array<[string, number, number]> = [];
  for (const r of ROLES) {
    const c = t.roles[r];
    out.push([`${r} label on its fill`, contrast(c.text, c.fill), 4.5]);
    out.push([`sub text on ${r} fill`, contrast(t.sub, c.fill), 4.5]);
  }
  for (const [i, g] of t.groups.entries()) {
    out.push([`observer label on group fill ${i}`, contrast(t.roles.observer.text, g), 4.5]);
    out.push([`sub text on group fill ${i}`, contrast(t.sub, g), 4.5]);
  }
  out.push(['group label on closed group', contrast(t.fg, t.groupFill), 4.5]);
  out.push(['muted text on closed group', contrast(t.muted, t.groupFill), 4.5]);
  out.push(['button text', contrast(t.fg, t.btn), 4.5]);
  out.push(['button text (hover)', contrast(t.fg, t.btnHover), 4.5]);
  out.push(['text on raised surfaces', contrast(t.fg, t.raised), 4.5]);
  out.push(['muted text on raised surfaces', contrast(t.muted, t.raised), 4.5]);
  out.push(['note text', contrast(t.fg, t.noteBg), 4.5]);
  out.push(['finding text', contrast(t.fg, t.warnBg), 4.5]);
  for (const bg of [...canvases, t.bg]) {
    out.push([`text on ${bg}`, contrast(t.fg, bg), 4.5]);
    out.push([`muted text on ${bg}`, contrast(t.muted, bg), 4.5]);
    // text drawn in a mark colour: int8 edge labels, badges, signed deltas
    for (const [k, c] of Object.entries({
      int: t.int,
      added: t.added,
      removed: t.removed,
      warn: t.warn,
      q: t.roles.quantize.stroke,
      dq: t.roles.dequantize.stroke,
      obs: t.roles.observer.stroke,
    }))
      out.push([`${k} text on ${bg}`, contrast(c, bg), 4.5]);
    for (const [k, c] of Object.entries({ edge: t.edge, match: t.match, selected: t.selected, gstroke: t.groupStroke }))
      out.push([`${k} mark on ${bg}`, contrast(c, bg), 3]);
    for (const r of ROLES) out.push([`${r} stroke on ${bg}`, contrast(t.roles[r].stroke, bg), 3]);
    for (const [i, c] of t.specs.entries()) out.push([`spec ${i} on ${bg}`, contrast(c, bg), 4.5]);
    for (let g = 0; g <= 10; g++)
      out.push([`heat ${g / 10} on ${bg}`, contrast(hslRgb(heatHue(g / 10), 72, t.heatL), bg), 3]);
  }
  // output-spec badges: canvas-coloured text on the spec colour
  for (const [i, c] of t.specs.entries()) out.push([`badge text on spec ${i}`, contrast(t.canvas, c), 4.5]);
  return out;
}

describe('palette contrast (WCAG 2)', () => {
  for (const [name, t, cv] of [
    ['light', LIGHT, CANVASES.light],
    ['dark', DARK, CANVASES.dark],
  ] as const) {
    it(`${name}: text ≥ 4.5:1 and marks ≥ 3:1`, () => {
      const bad = checks(t, cv)
        .filter(([, r, min]) => r < min)
        .map(([what, r, min]) => `${what}: ${r.toFixed(2)} < ${min}`);
      expect(bad).toEqual([]);
    });
  }

  it('contrast arithmetic matches known WCAG values', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(hslRgb(0, 100, 50)).toEqual([255, 0, 0]);
    expect(hslRgb(120, 100, 25)).toEqual([0, 128, 0]);
  });

  it('one meaning per colour: the dark theme changes every fill, no two roles share a colour', () => {
    for (const t of [LIGHT, DARK]) {
      const fills = ROLES.map((r) => t.roles[r].fill);
      expect(new Set(fills).size).toBe(ROLES.length);
      const strokes = ROLES.map((r) => t.roles[r].stroke);
      expect(new Set(strokes).size).toBe(ROLES.length);
      // observer group fills are never a quantize / dequantize / output fill
      for (const g of t.groups)
        expect([t.roles.quantize.fill, t.roles.dequantize.fill, t.roles.output.fill]).not.toContain(g);
      const marks = [t.int, t.removed, t.added, t.match, t.warn];
      expect(new Set(marks).size).toBe(marks.length);
    }
    for (const r of ROLES) expect(DARK.roles[r].fill).not.toBe(LIGHT.roles[r].fill);
  });
});

describe('marks tell apart (CIEDE2000), not only contrast', () => {
  // a frame or stroke a reader must tell from every other: node role strokes, the state frames, int8 edges, the
  // fp32 warning; and the sharing-group fills among themselves and against the q / dq / output fills
  const MARK_DE = 10;
  const FILL_DE = 12;
  const pairs = (xs: Array<[string, string]>, min: number): string[] => {
    const bad: string[] = [];
    for (let i = 0; i < xs.length; i++)
      for (let j = i + 1; j < xs.length; j++) {
        const d = deltaE2000(hexRgb(xs[i][1]), hexRgb(xs[j][1]));
        if (d < min) bad.push(`${xs[i][0]} ~ ${xs[j][0]}: ΔE ${d.toFixed(1)} < ${min}`);
      }
    return bad;
  };
  it('CIEDE2000 matches published values', () => {
    // Sharma, Wu & Dalal (2005), test data pairs 1, 7, 17 and 34
    expect(deltaE2000Lab([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(deltaE2000Lab([50, 0, 0], [50, -1, 2])).toBeCloseTo(2.3669, 4);
    expect(deltaE2000Lab([50, 2.5, 0], [73, 25, -18])).toBeCloseTo(27.1492, 4);
    expect(deltaE2000Lab([2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514])).toBeCloseTo(0.9082, 4);
    expect(deltaE2000([0, 0, 0], [255, 255, 255])).toBeCloseTo(100, 1);
  });
  for (const [name, t] of [
    ['light', LIGHT],
    ['dark', DARK],
  ] as const) {
    it(`${name}: every mark ≥ ΔE ${MARK_DE} from every other, group fills ≥ ΔE ${FILL_DE}`, () => {
      const marks: Array<[string, string]> = [
        ...ROLES.map((r) => [`${r} stroke`, t.roles[r].stroke] as [string, string]),
        ['added', t.added],
        ['removed', t.removed],
        ['match', t.match],
        ['selected', t.selected],
        ['warn', t.warn],
        ['int', t.int],
      ];
      expect(pairs(marks, MARK_DE)).toEqual([]);
      const fills: Array<[string, string]> = t.groups.map((g, i) => [`group ${i}`, g]);
      expect(pairs(fills, FILL_DE)).toEqual([]);
      for (const r of ['quantize', 'dequantize', 'output'] as const)
        expect(pairs([[`${r} fill`, t.roles[r].fill], ...fills], FILL_DE).filter((x) => x.startsWith(r))).toEqual([]);
      expect(
        pairs(
          t.specs.map((c, i) => [`spec ${i}`, c]),
          7,
        ),
      ).toEqual([]);
    });
    it(`${name}: any two sharing groups differ in fill (ΔE ≥ ${FILL_DE}) or, a palette cycle apart, in number chip`, () => {
      // what box-model.ts draws for group g: the fill groupFill picks, and the chip's text
      const cue = (g: number): [string, string] => [t.groups[g % GROUP_COLORS], String(g)];
      const bad: string[] = [];
      let byChipOnly = 0;
      for (let a = 0; a < 300; a++)
        for (let b = a + 1; b < 300; b++) {
          const [fa, ca] = cue(a);
          const [fb, cb] = cue(b);
          const apart = deltaE2000(hexRgb(fa), hexRgb(fb)) >= FILL_DE;
          if (!apart) byChipOnly++;
          if (!apart && ca === cb) bad.push(`groups ${a} and ${b}`);
          if (!apart && b - a < GROUP_COLORS) bad.push(`groups ${a} and ${b} within one cycle share a fill`);
        }
      expect(bad).toEqual([]);
      expect(GROUP_COLORS).toBe(12);
      expect(byChipOnly).toBeGreaterThan(0);
    });
    it(`${name}: "added by this stage" is a green frame (the course's 綠框), unlike the output role`, () => {
      const [r, g, b] = hexRgb(t.added);
      expect(g).toBeGreaterThan(r);
      expect(g).toBeGreaterThan(b);
      expect(deltaE2000(hexRgb(t.added), hexRgb(t.roles.output.stroke))).toBeGreaterThan(25);
    });
  }
});

describe('heat fill (overlay values as node fill)', () => {
  for (const [name, t] of [
    ['light', LIGHT],
    ['dark', DARK],
  ] as const) {
    it(`${name}: labels stay readable on every step, the worst is far from the best tenth`, () => {
      const bad: string[] = [];
      for (let i = 0; i <= 20; i++) {
        const c = heatFill(t.heatFill, i / 20);
        for (const r of ROLES)
          if (contrast(t.roles[r].text, c) < 4.5)
            bad.push(`${r} label on heat ${i / 20}: ${contrast(t.roles[r].text, c)}`);
        if (contrast(t.sub, c) < 4.5) bad.push(`sub text on heat ${i / 20}`);
      }
      expect(bad).toEqual([]);
      // e.g. SQNR 10..40 dB: the worst node against 36–40 dB (the best ~13 %) is a different colour, not a shade
      const worst = hexRgb(heatFill(t.heatFill, 0));
      for (const g of [0.87, 0.93, 1]) expect(deltaE2000(worst, hexRgb(heatFill(t.heatFill, g)))).toBeGreaterThan(25);
      // perceptual: equal steps in goodness are roughly equal steps in ΔE (no flat stretch, no jump)
      const steps = Array.from({ length: 10 }, (_, i) =>
        deltaE2000(hexRgb(heatFill(t.heatFill, i / 10)), hexRgb(heatFill(t.heatFill, (i + 1) / 10))),
      );
      expect(Math.max(...steps) / Math.min(...steps)).toBeLessThan(3);
    });
  }
});
