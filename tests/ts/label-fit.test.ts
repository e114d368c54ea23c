// No box text runs past its box (labelfit brief): the box model cuts every label, second line, chip, badge and
// group title to the width it is drawn in, by the measure text-fit.ts gives (glyph widths, once per font) — for
// long ASCII module and op names, zh-TW, names with no break point and hostile ones — and the painters draw exactly
// what it cut. The whole text stays in the tooltip.
import { afterEach, describe, expect, it } from 'vitest';
import { summarize } from '../../src/core/badges';
import { groupModel, groupTip, HEAT_BAR_W, nodeModel, nodeTip } from '../../src/core/box-model';
import { Facts } from '../../src/core/facts';
import type { FrameTexts } from '../../src/core/frame';
import { buildHierarchy, groupKey, nodeKey } from '../../src/core/groups';
import { makeHeat } from '../../src/core/heat';
import { type Box, groupLabel } from '../../src/core/hier-layout';
import { EN, translator } from '../../src/core/i18n';
import type { Scene } from '../../src/core/scene';
import { FONT_STACK, FONTS, fitText, resetTextWidths, textWidth } from '../../src/core/text-fit';
import type { Snapshot } from '../../src/core/types';
import { zoomLabels } from '../../src/core/zoom-labels';
import { fixture } from './helpers';

const NAMES = {
  ascii: 'features.denseblock4.denselayer16.conv2',
  decomposed: 'aten._native_batch_norm_legit_no_training.default',
  zh: '殘差區塊的加法運算節點與其後的整流線性單元',
  nobreak: 'ConvQuantizerComposableX86InductorQuantizerLinearQuantizer',
  hostile: '<img src=x onerror=alert(1)>\u202eWWWWWWWWWWWWWWWWWWWW',
};

/** conv_prepared with every compute node, its module and class renamed to the long names; boxes `w` wide. */
function scene(w: number, o: { heat?: boolean; zh?: boolean } = {}): Scene {
  const snap = structuredClone(fixture('conv_prepared.json').panes[0].snapshot) as Snapshot;
  const names = Object.values(NAMES);
  snap.nodes
    .filter((n) => n.role === 'compute')
    .forEach((n, i) => {
      const name = names[i % names.length];
      n.target = name;
      n.target_full = name;
      n.module_stack = [[`${name}.blk`, name], ...n.module_stack.slice(1)];
    });
  const out = { outcome: 'delegated-int8', kernel: null, reason: null, annotated: true } as const;
  const lowered = snap.nodes.filter((n) => n.role === 'compute').map((n) => [n.id, out]);
  snap.backend = { name: 'xnnpack', options: {}, nodes: Object.fromEntries(lowered), counts: {} };
  const heat = o.heat
    ? makeHeat({ name: 'SQNR', unit: 'dB', higher_is_better: true, values: { conv2d: 12, linear: 40 } })
    : null;
  const facts = new Facts(snap);
  const hier = buildHierarchy(snap.nodes, snap.edges);
  const boxes = new Map<string, Box>();
  snap.nodes.forEach((n, i) => {
    boxes.set(nodeKey(n.id), { key: nodeKey(n.id), kind: 'node', x: w / 2, y: 20 + 60 * i, w, h: 40, id: n.id });
  });
  for (const [k, g] of hier.groups)
    for (const kind of ['collapsed', 'expanded'] as const)
      boxes.set(`${kind}:${k}`, { key: groupKey(k), kind, x: w / 2, y: 0, w, h: 64, group: g });
  const t = o.zh ? translator('zh-TW') : EN;
  const placement = { boxes, width: w, height: 60 * snap.nodes.length } as unknown as Scene['placement'];
  return { facts, hier, placement, heat, t, summary: summarize(hier, facts, heat), solid: [] } as unknown as Scene;
}

const W = (text: string, f: (typeof FONTS)[keyof typeof FONTS]): number => textWidth(text, f);
const cutOf = (whole: string, shown: string): boolean =>
  shown === whole || (shown.endsWith('…') && whole.startsWith(shown.slice(0, -1).trimEnd()));

afterEach(() => resetTextWidths());

describe('box texts fit their boxes by measured width', () => {
  for (const w of [72, 120, 240])
    for (const [how, o] of [
      ['plain', {}],
      ['heat bar, zh-TW words', { heat: true, zh: true }],
    ] as const)
      it(`nodes ${w} wide (${how}): label and second line inside, chips inside the box and their text inside them`, () => {
        const sc = scene(w, o);
        let cut = 0;
        for (const b of sc.placement.boxes.values()) {
          if (b.kind !== 'node') continue;
          const m = nodeModel(sc, b);
          const n = sc.facts.nodes.get(m.id)!;
          const left = m.heat ? HEAT_BAR_W : 0;
          for (const [text, f] of [
            [m.label, FONTS.label],
            [m.sub, FONTS.sub],
          ] as const) {
            const half = W(text, f) / 2;
            expect(m.textX - half, `${text} in ${w}`).toBeGreaterThanOrEqual(left + 3);
            expect(m.textX + half, `${text} in ${w}`).toBeLessThanOrEqual(w - 3);
          }
          expect(cutOf(n.target, m.label), `${m.label} of ${n.target}`).toBe(true);
          if (m.label !== n.target) cut++;
          // the tooltip keeps the whole name
          expect(nodeTip(sc, m.id)[0]).toContain(n.target_full);
          for (const c of [m.spec, m.outcome, m.groupChip])
            if (c) {
              expect(c.x).toBeGreaterThanOrEqual(0);
              expect(c.x + c.w).toBeLessThanOrEqual(w);
              expect(W(c.text, FONTS.chip)).toBeLessThanOrEqual(c.w);
            }
          if (m.spec && m.outcome) expect(m.outcome.x + m.outcome.w).toBeLessThanOrEqual(m.spec.x);
        }
        expect(cut).toBeGreaterThan(0); // the long names were cut at every width here
      });

  it('group titles, closed groups’ second lines and badges: inside the box at every width, cut with …', () => {
    for (const w of [120, 200, 300]) {
      const sc = scene(w, { zh: true });
      for (const b of sc.placement.boxes.values()) {
        if (b.kind === 'node') continue;
        const m = groupModel(sc, b);
        const whole = `${b.kind === 'collapsed' ? '⊞' : '⊟'} ${groupLabel(b.group!)}`;
        expect(cutOf(whole, m.label), m.label).toBe(true);
        expect(m.labelX + W(m.label, FONTS.label), m.label).toBeLessThanOrEqual(w - 6);
        if (m.sub) expect(m.labelX + W(m.sub, FONTS.sub)).toBeLessThanOrEqual(w - 6);
        for (const c of m.badges) {
          expect(c.x + c.w, `${c.text} in ${w}`).toBeLessThanOrEqual(w - 10);
          expect(W(c.text, FONTS.badge)).toBeLessThanOrEqual(c.w);
        }
        expect(groupTip(sc, m.group, b.kind === 'collapsed')).toContain(b.group!.path || '');
      }
    }
  });

  it('zoomed out, each title’s text fits its plate', () => {
    const sc = scene(160);
    const open = [...sc.placement.boxes.values()].filter((b) => b.kind === 'expanded');
    for (const k of [0.6, 0.3, 0.1]) {
      const texts = { box: (key: string) => groupModel(sc, open.find((b) => b.key === key)!) } as FrameTexts;
      const ls = zoomLabels(sc.placement, texts, open, k);
      expect(ls.length).toBeGreaterThan(0);
      for (const l of ls) expect(textWidth(l.text, { ...FONTS.label, size: l.size })).toBeLessThanOrEqual(l.plate.w);
    }
  });
});

describe('the measure', () => {
  it('cuts by width, not characters: as many i as fit, fewer a, fewer still CJK; never a half surrogate pair', () => {
    const f = FONTS.label;
    const [i, a, zh] = ['i', 'a', '漢'].map((c) => fitText(c.repeat(80), f, 100));
    for (const s of [i, a, zh]) expect(W(s, f)).toBeLessThanOrEqual(100);
    expect(i.length).toBeGreaterThan(a.length);
    expect(a.length).toBeGreaterThan(zh.length);
    const emoji = fitText('🙂'.repeat(40), f, 60);
    expect(emoji.endsWith('…')).toBe(true);
    expect([...emoji].every((c) => c === '🙂' || c === '…')).toBe(true);
    expect(fitText('conv2d', f, 200)).toBe('conv2d');
    expect(fitText('conv2d', f, 2)).toBe('');
  });

  it('measures each glyph once per font: 100k distinct labels cost as many measure calls as distinct characters', () => {
    const calls: string[] = [];
    resetTextWidths((text, font) => {
      calls.push(text);
      expect(font).toContain(FONT_STACK);
      return text === 'W' ? 90 : 55;
    });
    for (let i = 0; i < 100_000; i++) fitText(`conv2d_${i}`, FONTS.label, 60);
    const distinct = new Set('conv2d_0123456789…');
    expect(calls.length).toBe(distinct.size);
    // and the swapped measure is what fits: W is wider, so fewer of them
    expect(fitText('W'.repeat(30), FONTS.label, 100).length).toBeLessThan(
      fitText('a'.repeat(30), FONTS.label, 100).length,
    );
  });

  it('the stylesheet draws box texts in the font stack and sizes text-fit measures', async () => {
    const { injectStyles } = await import('../../src/core/styles');
    const el = document.createElement('div');
    document.body.appendChild(el);
    injectStyles(el);
    const css = [...document.querySelectorAll('style')].map((s) => s.textContent).join('\n');
    expect(css).toContain(`.pt2e-lens svg text{font-family:${FONT_STACK}}`);
    expect(css).toContain(`.pl-node text.pl-label{font-size:${FONTS.label.size}px;font-weight:${FONTS.label.weight}}`);
    expect(css).toContain(`.pl-node text.pl-sub{font-size:${FONTS.sub.size}px`);
    expect(css).toContain(`.pl-group text.pl-glabel{font-size:${FONTS.label.size}px;font-weight:${FONTS.label.weight}`);
    expect(css).toContain(`.pl-gbadge text{font-size:${FONTS.badge.size}px;font-weight:${FONTS.badge.weight}}`);
    expect(css).toContain(`.pl-badge text{font-size:${FONTS.chip.size}px;font-weight:${FONTS.chip.weight}`);
    expect(css).toContain(`.pl-outcome text{font-size:${FONTS.chip.size}px;font-weight:${FONTS.chip.weight}`);
  });
});
