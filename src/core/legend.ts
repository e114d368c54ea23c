// The legend of one pane: every colour and mark the pane can show, each with its one meaning, from the
// same `--pl-*` properties the drawing uses.

import { fmtNum, h } from './dom';
import type { Facts } from './facts';
import { type Heat, heatColor } from './heat';
import { BADGE_COLOR } from './nodes';
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

export function legend(d: Document, facts: Facts, nodes: GraphNode[], o: LegendOptions = {}): HTMLElement {
  const lg = h(d, 'div', { class: 'pl-legend' });
  const present = new Set(nodes.map((n) => n.role));
  for (const r of ROLES) {
    if (!present.has(r)) continue;
    lg.appendChild(item(d, [swatch(d, `var(--pl-${r}-fill)`, `var(--pl-${r}-stroke)`), r], `pl-legend-role`));
  }
  const snap = facts.snap;
  if (snap.qdq.length)
    lg.appendChild(
      item(d, [line(d, 'var(--pl-int)'), 'int8 tensor (out of quantize, into dequantize)'], 'pl-legend-int'),
    );
  if (snap.observers.length) {
    const groups = [...new Set(snap.observers.map((x) => x.group))].slice(0, 4);
    lg.appendChild(
      item(
        d,
        [...groups.map((g) => swatch(d, groupFill(g), 'var(--pl-observer-stroke)')), 'observer fill = sharing group'],
        'pl-legend-groups',
      ),
    );
  }
  if (snap.annotations.length) {
    lg.appendChild(item(d, ['● annotated · ○ _annotated=False']));
    lg.appendChild(item(d, [line(d, 'var(--pl-spec-0)', 'dashed'), 'shared spec link']));
  }
  for (const sp of snap.specs) {
    const c = facts.specColor(sp.id);
    lg.appendChild(
      item(
        d,
        [
          line(d, c),
          `${sp.id} ${sp.kind.replace('QuantizationSpec', '') || 'Quant'}${sp.dtype ? ` ${sp.dtype}` : ''}${sp.qscheme ? ` ${sp.qscheme}` : ''}`,
        ],
        'pl-legend-spec',
        `${sp.kind}: edge colour and output badge`,
      ),
    );
  }
  if (o.marks?.removed.size)
    lg.appendChild(
      item(
        d,
        [swatch(d, 'transparent', 'var(--pl-removed)', 'border-style:dashed'), 'removed by the next stage'],
        'pl-legend-removed',
      ),
    );
  if (o.marks?.added.size)
    lg.appendChild(item(d, [swatch(d, 'transparent', 'var(--pl-added)'), 'added by this stage'], 'pl-legend-added'));
  lg.appendChild(item(d, [swatch(d, 'transparent', 'var(--pl-selected)'), 'selected'], 'pl-legend-selected'));
  if (o.compare)
    lg.appendChild(
      item(
        d,
        [swatch(d, 'transparent', 'var(--pl-selected)', 'border-style:dashed'), 'same node in another stage'],
        'pl-legend-counterpart',
      ),
    );
  lg.appendChild(item(d, [swatch(d, 'transparent', 'var(--pl-match)'), 'search match'], 'pl-legend-match'));
  if (o.groups) {
    const b = (k: keyof typeof BADGE_COLOR, t: string): HTMLElement =>
      h(d, 'span', { style: `color:${BADGE_COLOR[k]};font-weight:700` }, t);
    lg.appendChild(
      item(
        d,
        [
          'closed group: ',
          b('annotated', '● annotated'),
          ' ',
          b('fp32', 'fp32 ops'),
          ' ',
          b('island', '⚠ fp32 islands'),
          ' ',
          b('quantize', 'q'),
          '/',
          b('dequantize', 'dq'),
          ' ',
          b('observer', 'obs'),
        ],
        'pl-legend-badges',
        'counts inside a closed group; a yellow frame: no op inside is annotated (all fp32)',
      ),
    );
  }
  if (o.heat) {
    const ov = o.heat.overlay;
    const [lo, hi] = ov.higher_is_better ? [heatColor(0), heatColor(1)] : [heatColor(1), heatColor(0)];
    lg.appendChild(
      item(
        d,
        [
          `${ov.name}${ov.unit ? ` (${ov.unit})` : ''}: ${fmtNum(o.heat.min)} `,
          h(d, 'span', { class: 'pl-heat-scale', style: `background:linear-gradient(90deg,${lo},${hi})` }),
          ` ${fmtNum(o.heat.max)} · ${ov.higher_is_better ? 'higher' : 'lower'} is better`,
        ],
        'pl-heat-legend',
        `${ov.name}${ov.unit ? ` (${ov.unit})` : ''}: ${ov.higher_is_better ? 'higher' : 'lower'} is better`,
      ),
    );
  }
  return lg;
}
