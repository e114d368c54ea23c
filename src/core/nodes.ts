// Node and group boxes of one pane: role colours, observer group fills, annotation marker, output-spec
// badge, notes; tooltips carry observer stats and q/dq parameters as text.
import { fmtNum, fmtNums, h, s, truncate } from './dom';
import type { Facts } from './facts';
import { type Heat, heatColor } from './heat';
import { type Box, groupLabel, HEADER } from './hier-layout';
import type { Scene } from './scene';
import { groupFill, INT_EDGE, ROLE_COLORS } from './styles';
import { type GraphNode, ROLES } from './types';

/** Second line of a node: its id when the label is the short target, else what else identifies it. */
function subLabel(n: GraphNode, group?: number): string {
  if (n.role === 'observer') return `${n.observer ?? ''}${group !== undefined ? ` · group ${group}` : ''}`;
  if (n.id !== n.target) return n.id;
  return n.shape ? n.shape.join('×') : n.role;
}

export function drawNode(sc: Scene, b: Box, onClick: (id: string) => void): SVGElement {
  const d = sc.doc;
  const f = sc.facts;
  const n = f.nodes.get(b.id!)!;
  const c = ROLE_COLORS[n.role] ?? ROLE_COLORS.compute;
  const g = s(d, 'g', {
    class: `pl-node pl-role-${n.role}`,
    'data-id': n.id,
    'data-role': n.role,
    transform: `translate(${b.x - b.w / 2},${b.y - b.h / 2})`,
  });
  const obs = f.observerOf(n.id);
  const fill = n.role === 'observer' && obs ? groupFill(obs.group) : c.fill;
  g.appendChild(s(d, 'rect', { class: 'pl-box', width: b.w, height: b.h, rx: 6, fill, stroke: c.stroke }));
  const heat = sc.heat?.of(n.id);
  const cx = heat ? b.w / 2 + 3 : b.w / 2; // text clears the overlay bar
  const maxChars = Math.max(6, Math.floor((b.w - 12) / 7));
  g.appendChild(
    s(
      d,
      'text',
      { class: 'pl-label', x: cx, y: 17, 'text-anchor': 'middle', fill: c.text },
      truncate(n.target, maxChars),
    ),
  );
  g.appendChild(
    s(
      d,
      'text',
      { class: 'pl-sub', x: cx, y: 31, 'text-anchor': 'middle' },
      truncate(subLabel(n, obs?.group), Math.floor((b.w - 10) / 6)),
    ),
  );
  const tip: string[] = [`${n.id}: ${n.target_full}`, `role: ${n.role}`];
  if (n.shape) tip.push(`shape: [${n.shape.join(', ')}] ${n.dtype ?? ''}`);
  if (obs) {
    tip.push(
      `observer ${obs.id} group ${obs.group}`,
      `min ${fmtNums(obs.min)} max ${fmtNums(obs.max)}`,
      `scale ${fmtNums(obs.scale)} zero_point ${fmtNums(obs.zero_point)}`,
    );
  }
  const q = f.qdq.get(n.id);
  if (q) tip.push(`${q.op} ${q.dtype ?? ''}`, `scale ${fmtNums(q.scale)} zero_point ${fmtNums(q.zero_point)}`);
  const a = f.annotation.get(n.id);
  if (a) {
    const mark = s(d, 'circle', {
      class: 'pl-annotated-mark',
      cx: heat ? 13 : 6,
      cy: 6,
      r: 4,
      fill: a.annotated ? '#0f172a' : '#fff',
      stroke: '#0f172a',
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
      badge.appendChild(s(d, 'rect', { width: 24, height: 13, rx: 3, fill: f.specColor(a.output) }));
      badge.appendChild(s(d, 'text', { x: 12, y: 10, 'text-anchor': 'middle' }, truncate(a.output, 5)));
      badge.appendChild(s(d, 'title', undefined, `output spec ${a.output}`));
      g.appendChild(badge);
    }
    tip.push(
      `annotation: output ${a.output ?? 'none'}; inputs ${a.inputs.map((i) => `${i.src}:${i.spec ?? 'none'}`).join(', ')}`,
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
      'data-value': sc.heat!.overlay.values[n.id],
    });
    bar.appendChild(s(d, 'title', undefined, heat.text));
    g.appendChild(bar);
    tip.push(heat.text);
  }
  const note = sc.notes?.[n.id];
  if (note) {
    g.appendChild(s(d, 'text', { class: 'pl-note', x: b.w + 6, y: 16 }, `✎ ${truncate(note, 48)}`));
    tip.push(`note: ${note}`);
  }
  g.appendChild(s(d, 'title', undefined, tip.join('\n')));
  g.addEventListener('click', (e) => {
    e.stopPropagation();
    onClick(n.id);
  });
  return g;
}

export function drawGroup(sc: Scene, b: Box, onToggle: (key: string) => void): SVGElement {
  const d = sc.doc;
  const grp = b.group!;
  const collapsed = b.kind === 'collapsed';
  const g = s(d, 'g', {
    class: `pl-group ${collapsed ? 'pl-collapsed' : 'pl-expanded'}`,
    'data-group': grp.key,
    transform: `translate(${b.x - b.w / 2},${b.y - b.h / 2})`,
  });
  g.appendChild(s(d, 'rect', { class: 'pl-gbox', width: b.w, height: b.h, rx: collapsed ? 6 : 8 }));
  const label = groupLabel(grp);
  const chars = Math.max(8, Math.floor((b.w - 30) / 6.6));
  if (collapsed) {
    g.appendChild(s(d, 'text', { class: 'pl-glabel', x: 10, y: 18 }, `⊞ ${truncate(label, chars)}`));
    g.appendChild(s(d, 'text', { class: 'pl-gsub', x: 10, y: 34 }, `${grp.total} nodes — click to open`));
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
      `${grp.synthetic ? `section ${grp.label}` : `${grp.path} · ${grp.cls}`} (${grp.total} nodes) — click to ${collapsed ? 'open' : 'close'}`,
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

/** Legend for what this pane shows. */
export function legend(d: Document, facts: Facts, nodes: GraphNode[], heat: Heat | null = null): HTMLElement {
  const lg = h(d, 'div', { class: 'pl-legend' });
  const present = new Set(nodes.map((n) => n.role));
  for (const r of ROLES) {
    if (!present.has(r)) continue;
    const item = h(d, 'span');
    const sw = h(d, 'span', {
      class: 'pl-swatch',
      style: `background:${ROLE_COLORS[r].fill};border-color:${ROLE_COLORS[r].stroke}`,
    });
    item.append(sw, d.createTextNode(r));
    lg.appendChild(item);
  }
  if (facts.snap.qdq.length)
    lg.appendChild(h(d, 'span', { style: `color:${INT_EDGE};font-weight:600` }, '━ quantized (int) edge'));
  if (facts.snap.annotations.length) {
    lg.appendChild(h(d, 'span', undefined, '━ coloured edge/badge = quantization spec · ● annotated · ┄ shared spec'));
  }
  for (const sp of facts.snap.specs) {
    const item = h(d, 'span', { title: sp.kind });
    item.append(
      h(d, 'span', {
        class: 'pl-swatch',
        style: `background:${facts.specColor(sp.id)};border-color:${facts.specColor(sp.id)}`,
      }),
    );
    item.append(
      d.createTextNode(
        `${sp.id} ${sp.kind.replace('QuantizationSpec', '') || 'Quant'}${sp.dtype ? ` ${sp.dtype}` : ''}${sp.qscheme ? ` ${sp.qscheme}` : ''}`,
      ),
    );
    lg.appendChild(item);
  }
  if (facts.snap.observers.length) lg.appendChild(h(d, 'span', undefined, 'observer fill = sharing group'));
  if (heat) {
    const o = heat.overlay;
    const item = h(d, 'span', {
      class: 'pl-heat-legend',
      title: `${o.name}${o.unit ? ` (${o.unit})` : ''}: ${o.higher_is_better ? 'higher' : 'lower'} is better`,
    });
    const [lo, hi] = o.higher_is_better ? [heatColor(0), heatColor(1)] : [heatColor(1), heatColor(0)];
    item.append(
      d.createTextNode(`${o.name}${o.unit ? ` (${o.unit})` : ''}: ${fmtNum(heat.min)} `),
      h(d, 'span', { class: 'pl-heat-scale', style: `background:linear-gradient(90deg,${lo},${hi})` }),
      d.createTextNode(` ${fmtNum(heat.max)} · ${o.higher_is_better ? 'higher' : 'lower'} is better`),
    );
    lg.appendChild(item);
  }
  return lg;
}
