// The legend of one pane: every colour and mark the pane can show, each with its one meaning, from the
// same `--pl-*` properties the drawing uses.

import { backendLegend } from './backend';
import { BADGE_COLOR } from './badges';
import { h } from './dom';
import type { Facts } from './facts';
import { fmtValue, type Heat } from './heat';
import { EN, type Tr } from './i18n';
import { foldable } from './legend-fold';
import { groupFill } from './styles';
import { type GraphNode, ROLES } from './types';

export interface LegendOptions {
  heat?: Heat | null;
  /** diff marks shown in this pane */
  marks?: { removed: Set<string>; added: Set<string> };
  /** the view has other panes whose counterparts are marked here */
  compare?: boolean;
  /** the pane has module groups (closed groups carry badges) */
  groups?: boolean;
  /** the UI's words in the view's locale */
  t?: Tr;
}

function swatch(d: Document, fill: string, stroke: string, extra = ''): HTMLElement {
  return h(d, 'span', { class: 'pl-swatch', style: `background:${fill};border-color:${stroke};${extra}` });
}

function line(d: Document, color: string, style = 'solid'): HTMLElement {
  return h(d, 'span', { class: 'pl-line', style: `border-top-color:${color};border-top-style:${style}` });
}

function item(d: Document, parts: Array<HTMLElement | string>, cls?: string, title?: string): HTMLElement {
  const it = h(d, 'span', { class: cls, title });
  for (const p of parts) it.append(typeof p === 'string' ? d.createTextNode(p) : p);
  return it;
}

/** more specs than this fold to one chip (a small model's two or three stay listed) */
export const SPEC_FOLD = 6;

/** One chip "70 quantization specs" that opens the list of them (returned: where the spec chips go). */
function specFold(d: Document, lg: HTMLElement, n: number, t: Tr): HTMLElement {
  const list = h(d, 'span', { class: 'pl-legend-speclist', hidden: '' });
  const mark = h(d, 'span', { class: 'pl-fold-mark' }, '▸ ');
  const btn = h(d, 'button', {
    type: 'button',
    class: 'pl-legend-specfold',
    'aria-expanded': 'false',
    title: t('ui.legend.specs_title'),
  });
  btn.append(mark, d.createTextNode(t('ui.legend.specs', { n })));
  btn.addEventListener('click', () => {
    const open = list.hasAttribute('hidden');
    list.toggleAttribute('hidden', !open);
    btn.setAttribute('aria-expanded', String(open));
    mark.textContent = open ? '▾ ' : '▸ ';
  });
  lg.append(btn, list);
  return list;
}

export function legend(d: Document, facts: Facts, nodes: GraphNode[], o: LegendOptions = {}): HTMLElement {
  const t = o.t ?? EN;
  const lg = h(d, 'div', { class: 'pl-legend' });
  const present = new Set(nodes.map((n) => n.role));
  for (const r of ROLES) {
    if (!present.has(r)) continue;
    lg.appendChild(
      item(d, [swatch(d, `var(--pl-${r}-fill)`, `var(--pl-${r}-stroke)`), t(`ui.role.${r}`)], `pl-legend-role`),
    );
  }
  const snap = facts.snap;
  if (snap.qdq.length) lg.appendChild(item(d, [line(d, 'var(--pl-int)'), t('ui.legend.int')], 'pl-legend-int'));
  if (snap.observers.length) {
    const groups = [...new Set(snap.observers.map((x) => x.group))].slice(0, 4);
    lg.appendChild(
      item(
        d,
        [...groups.map((g) => swatch(d, groupFill(g), 'var(--pl-observer-stroke)')), t('ui.legend.groups')],
        'pl-legend-groups',
      ),
    );
  }
  if (snap.annotations.length) {
    lg.appendChild(item(d, [t('ui.legend.annotated')]));
    lg.appendChild(item(d, [line(d, 'var(--pl-spec-0)', 'dashed'), t('ui.legend.shared')]));
  }
  // a big Run has one spec per sharing group (s0 … s69 …): past a few, they fold to one chip with their count
  const specs = snap.specs.length > SPEC_FOLD ? specFold(d, lg, snap.specs.length, t) : lg;
  for (const sp of snap.specs) {
    const c = facts.specColor(sp.id);
    specs.appendChild(
      item(
        d,
        [
          line(d, c),
          `${sp.id} ${sp.kind.replace('QuantizationSpec', '') || t('ui.legend.spec_plain')}${sp.dtype ? ` ${sp.dtype}` : ''}${sp.qscheme ? ` ${sp.qscheme}` : ''}`,
        ],
        'pl-legend-spec',
        t('ui.legend.spec_title', { kind: sp.kind }),
      ),
    );
  }
  if (o.marks?.removed.size)
    lg.appendChild(
      item(
        d,
        [swatch(d, 'transparent', 'var(--pl-removed)', 'border-style:dashed'), t('ui.legend.removed')],
        'pl-legend-removed',
      ),
    );
  if (o.marks?.added.size)
    lg.appendChild(item(d, [swatch(d, 'transparent', 'var(--pl-added)'), t('ui.legend.added')], 'pl-legend-added'));
  lg.appendChild(
    item(d, [swatch(d, 'transparent', 'var(--pl-selected)'), t('ui.legend.selected')], 'pl-legend-selected'),
  );
  if (o.compare)
    lg.appendChild(
      item(
        d,
        [swatch(d, 'transparent', 'var(--pl-selected)', 'border-style:dashed'), t('ui.legend.counterpart')],
        'pl-legend-counterpart',
      ),
    );
  lg.appendChild(item(d, [swatch(d, 'transparent', 'var(--pl-match)'), t('ui.legend.match')], 'pl-legend-match'));
  if (o.groups) {
    const b = (k: keyof typeof BADGE_COLOR, t: string): HTMLElement =>
      h(d, 'span', { style: `color:${BADGE_COLOR[k]};font-weight:700` }, t);
    lg.appendChild(
      item(
        d,
        [
          t('ui.legend.closed_group'),
          b('annotated', t('ui.legend.badge_annotated')),
          ' ',
          b('fp32', t('ui.legend.badge_fp32')),
          ' ',
          b('island', t('ui.legend.badge_islands')),
          ' ',
          b('quantize', 'q'),
          '/',
          b('dequantize', 'dq'),
          ' ',
          b('observer', t('ui.legend.badge_obs')),
        ],
        'pl-legend-badges',
        t('ui.legend.badges_title'),
      ),
    );
  }
  if (o.heat) {
    const ov = o.heat.overlay;
    const better = t(ov.higher_is_better ? 'ui.legend.higher_better' : 'ui.legend.lower_better');
    // the node fill's scale, low value at the left; the numbers as the table rounds them
    const stops = ov.higher_is_better
      ? '--pl-heat-0),var(--pl-heat-1),var(--pl-heat-2'
      : '--pl-heat-2),var(--pl-heat-1),var(--pl-heat-0';
    lg.appendChild(
      item(
        d,
        [
          `${ov.name}${ov.unit ? ` (${ov.unit})` : ''}: ${fmtValue(o.heat.min)} `,
          h(d, 'span', { class: 'pl-heat-scale', style: `background:linear-gradient(90deg,var(${stops}))` }),
          ` ${fmtValue(o.heat.max)} · ${better}`,
        ],
        'pl-heat-legend',
        `${ov.name}${ov.unit ? ` (${ov.unit})` : ''}: ${better}`,
      ),
    );
  }
  const lowered = backendLegend(d, facts.snap, t);
  if (lowered) lg.appendChild(lowered);
  return foldable(d, lg, t);
}
