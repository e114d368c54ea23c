// Node and group boxes of one pane: role colours, observer group fills, annotation marker, output-spec
// badge, notes; tooltips carry observer stats and q/dq parameters as text.
import { outcomeMark, outcomeOf, outcomeText } from './backend';
import { allFp32, BADGE_GAP, type Badge, badgesOf, badgeWidth, type Summary } from './badges';
import { NOTE_LINE, NOTE_PAD } from './callout';
import { fmtNums, s, truncate } from './dom';
import { heatStyle } from './heat';
import { type Box, groupLabel, HEADER } from './hier-layout';
import type { Scene } from './scene';
import { groupFill } from './styles';
import type { GraphNode } from './types';

/** Second line of a node: its id when the label is the short target, else what else identifies it. */
function subLabel(sc: Scene, n: GraphNode, group?: number): string {
  if (n.role === 'observer')
    return `${n.observer ?? ''}${group !== undefined ? ` · ${sc.t('ui.group_n', { n: group })}` : ''}`;
  if (n.id !== n.target) return n.id;
  return n.shape ? n.shape.join('×') : sc.t(`ui.role.${n.role}`);
}

export function drawNode(sc: Scene, b: Box, onClick: (id: string) => void): SVGElement {
  const d = sc.doc;
  const f = sc.facts;
  const n = f.nodes.get(b.id!)!;
  const g = s(d, 'g', {
    class: `pl-node pl-role-${n.role}`,
    'data-id': n.id,
    'data-role': n.role,
    transform: `translate(${b.x - b.w / 2},${b.y - b.h / 2})`,
  });
  const obs = f.observerOf(n.id);
  // role colours come from the stylesheet (.pl-role-*); an observer is filled by its sharing group
  g.appendChild(
    s(d, 'rect', {
      class: 'pl-box',
      width: b.w,
      height: b.h,
      rx: 6,
      style: n.role === 'observer' && obs ? `fill:${groupFill(obs.group)}` : undefined,
    }),
  );
  const heat = sc.heat?.of(n.id);
  const cx = heat ? b.w / 2 + 3 : b.w / 2; // text clears the overlay bar
  if (heat) {
    // the value as the node's fill too, on the theme's perceptual scale (styles.ts picks light or dark)
    g.classList.add('pl-heated');
    g.setAttribute('style', `--pl-hl:${heat.light};--pl-hd:${heat.dark}`);
  }
  const maxChars = Math.max(6, Math.floor((b.w - 12) / 7));
  g.appendChild(
    s(d, 'text', { class: 'pl-label', x: cx, y: 17, 'text-anchor': 'middle' }, truncate(n.target, maxChars)),
  );
  g.appendChild(
    s(
      d,
      'text',
      { class: 'pl-sub', x: cx, y: 31, 'text-anchor': 'middle' },
      truncate(subLabel(sc, n, obs?.group), Math.floor((b.w - 10) / 6)),
    ),
  );
  const tip: string[] = [`${n.id}: ${n.target_full}`, sc.t('ui.tip.role', { role: sc.t(`ui.role.${n.role}`) })];
  if (n.shape) tip.push(sc.t('ui.tip.shape', { shape: `[${n.shape.join(', ')}] ${n.dtype ?? ''}` }));
  if (obs) {
    tip.push(
      sc.t('ui.tip.observer', { id: obs.id, group: obs.group }),
      sc.t('ui.tip.minmax', { min: fmtNums(obs.min), max: fmtNums(obs.max) }),
      `scale ${fmtNums(obs.scale)} zero_point ${fmtNums(obs.zero_point)}`,
    );
  }
  const q = f.qdq.get(n.id);
  if (q) tip.push(`${q.op} ${q.dtype ?? ''}`, `scale ${fmtNums(q.scale)} zero_point ${fmtNums(q.zero_point)}`);
  const a = f.annotation.get(n.id);
  if (a) {
    const mark = s(d, 'circle', {
      class: `pl-annotated-mark${a.annotated ? '' : ' pl-off'}`,
      cx: heat ? 13 : 6,
      cy: 6,
      r: 4,
      'stroke-width': 1.2,
    });
    mark.appendChild(
      s(
        d,
        'title',
        undefined,
        a.annotated ? 'annotated (_annotated = True)' : 'annotation present, _annotated = False',
      ),
    );
    g.appendChild(mark);
    if (a.output) {
      const badge = s(d, 'g', {
        class: 'pl-badge',
        'data-spec': a.output,
        transform: `translate(${b.w - 28},${b.h - 4})`,
      });
      badge.appendChild(s(d, 'rect', { width: 24, height: 13, rx: 3, style: `fill:${f.specColor(a.output)}` }));
      badge.appendChild(s(d, 'text', { x: 12, y: 10, 'text-anchor': 'middle' }, truncate(a.output, 5)));
      badge.appendChild(s(d, 'title', undefined, sc.t('ui.node.output_spec', { spec: a.output })));
      g.appendChild(badge);
    }
    tip.push(
      sc.t('ui.node.annotation_tip', {
        output: a.output ?? sc.t('ui.spec.none'),
        inputs: a.inputs.map((i) => `${i.src}:${i.spec ?? sc.t('ui.spec.none')}`).join(', '),
      }),
    );
  }
  if (heat) {
    // a bar along the left edge in the overlay's colour (e.g. SQNR), value in the tooltip and details
    const bar = s(d, 'rect', {
      class: 'pl-heat',
      x: 0,
      y: 0,
      width: 7,
      height: b.h,
      rx: 3,
      fill: heat.color,
      style: heatStyle(heat.color),
      'data-value': sc.heat!.overlay.values[n.id],
    });
    bar.appendChild(s(d, 'title', undefined, heat.text));
    g.appendChild(bar);
    tip.push(heat.text);
  }
  const mark = outcomeMark(d, f.snap, n.id, b.h, sc.t); // a lowered stage: what the backend made of it
  if (mark) g.appendChild(mark);
  const oc = outcomeOf(f.snap, n.id);
  if (oc) tip.push(outcomeText(sc.t, oc));
  const note = sc.notes?.[n.id];
  if (note) {
    if (b.note) g.appendChild(callout(sc, b));
    tip.push(sc.t('ui.tip.note', { note }));
  }
  g.appendChild(s(d, 'title', undefined, tip.join('\n')));
  g.addEventListener('click', (e) => {
    e.stopPropagation();
    onClick(n.id);
  });
  return g;
}

/** A note's callout box to the right of its node (coordinates relative to the node's corner). */
function callout(sc: Scene, b: Box): SVGElement {
  const d = sc.doc;
  const c = b.note!;
  const ox = b.x - b.w / 2;
  const oy = b.y - b.h / 2;
  const x = c.x - ox;
  const y = c.y - oy;
  const g = s(d, 'g', { class: 'pl-callout' });
  g.appendChild(s(d, 'path', { d: `M${b.w},${b.h / 2} L${x},${b.h / 2}` }));
  g.appendChild(s(d, 'rect', { x, y, width: c.w, height: c.h, rx: 4 }));
  c.lines.forEach((line, i) => {
    g.appendChild(s(d, 'text', { x: x + NOTE_PAD, y: y + NOTE_PAD + 11 + i * NOTE_LINE }, line));
  });
  return g;
}

/** A row of badges saying what a closed group holds. */
function badgeRow(d: Document, bs: Badge[], x: number, y: number): SVGElement {
  const row = s(d, 'g', { class: 'pl-gbadges', transform: `translate(${x},${y})` });
  let cx = 0;
  for (const b of bs) {
    const w = badgeWidth(b);
    const g = s(d, 'g', {
      class: `pl-gbadge pl-gbadge-${b.kind}`,
      'data-kind': b.kind,
      transform: `translate(${cx},0)`,
    });
    g.appendChild(s(d, 'rect', { width: w, height: 15, rx: 7, style: `stroke:${BADGE_COLOR[b.kind]}` }));
    g.appendChild(
      s(d, 'text', { x: w / 2, y: 11, 'text-anchor': 'middle', style: `fill:${BADGE_COLOR[b.kind]}` }, b.text),
    );
    g.appendChild(s(d, 'title', undefined, b.title));
    row.appendChild(g);
    cx += w + BADGE_GAP;
  }
  return row;
}

export const BADGE_COLOR: Record<Badge['kind'], string> = {
  quantize: 'var(--pl-quantize-stroke)',
  dequantize: 'var(--pl-dequantize-stroke)',
  observer: 'var(--pl-observer-stroke)',
  annotated: 'var(--pl-fg)',
  fp32: 'var(--pl-muted)',
  island: 'var(--pl-warn)',
  worst: 'var(--pl-fg)',
  int8: 'var(--pl-int)',
};

export const BADGE_ROW_H = 18;

export function drawGroup(sc: Scene, b: Box, onToggle: (key: string) => void): SVGElement {
  const d = sc.doc;
  const grp = b.group!;
  const collapsed = b.kind === 'collapsed';
  const g = s(d, 'g', {
    class: `pl-group ${collapsed ? 'pl-collapsed' : 'pl-expanded'}`,
    'data-group': grp.key,
    'data-total': grp.total,
    transform: `translate(${b.x - b.w / 2},${b.y - b.h / 2})`,
  });
  g.appendChild(s(d, 'rect', { class: 'pl-gbox', width: b.w, height: b.h, rx: collapsed ? 6 : 8 }));
  const label = groupLabel(grp);
  const chars = Math.max(8, Math.floor((b.w - 30) / 6.6));
  if (collapsed) {
    g.appendChild(s(d, 'text', { class: 'pl-glabel', x: 10, y: 18 }, `⊞ ${truncate(label, chars)}`));
    g.appendChild(s(d, 'text', { class: 'pl-gsub', x: 10, y: 33 }, sc.t('ui.group.sub', { n: grp.total })));
    const sum = sc.summary?.get(grp.key);
    const bs = sum ? badgesOf(sum, sc.heat, sc.t) : [];
    if (bs.length) g.appendChild(badgeRow(d, bs, 10, 40));
    if (sum) {
      setSummaryData(g, sum);
      if (allFp32(sum)) g.classList.add('pl-all-fp32');
    }
  } else {
    g.appendChild(
      s(d, 'rect', { class: 'pl-ghead', width: b.w, height: HEADER, fill: 'transparent', style: 'cursor:pointer' }),
    );
    g.appendChild(s(d, 'text', { class: 'pl-glabel', x: 8, y: 15 }, `⊟ ${truncate(label, chars)}`));
  }
  g.appendChild(
    s(
      d,
      'title',
      undefined,
      sc.t(collapsed ? 'ui.group.tip_open' : 'ui.group.tip_close', {
        what: grp.synthetic ? sc.t('ui.group.section', { label: grp.label }) : `${grp.path} · ${grp.cls}`,
        n: grp.total,
      }),
    ),
  );
  const target = collapsed ? g : g.querySelectorAll('.pl-ghead, .pl-glabel');
  const onClick = (e: Event): void => {
    e.stopPropagation();
    onToggle(grp.key);
  };
  if (collapsed) g.addEventListener('click', onClick);
  else
    (target as NodeListOf<Element>).forEach((t) => {
      t.addEventListener('click', onClick);
    });
  return g;
}

function setSummaryData(g: SVGElement, sm: Summary): void {
  g.setAttribute('data-q', String(sm.quantize));
  g.setAttribute('data-dq', String(sm.dequantize));
  g.setAttribute('data-obs', String(sm.observers));
  g.setAttribute('data-annotated', String(sm.annotated));
  g.setAttribute('data-fp32', String(sm.fp32));
  g.setAttribute('data-islands', String(sm.islands));
  if (sm.lowered) g.setAttribute('data-int8', `${sm.int8}/${sm.lowered}`);
}
