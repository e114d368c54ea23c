// SVG painting of a pane's node and group boxes: each element from its box model (box-model.ts), which says
// what it shows; role colours and marks come from the stylesheet's pl-* classes, the rest from the model.
import type { Summary } from './badges';
import { type GroupModel, groupModel, groupTip, LABEL_Y, NODE_RADIUS, nodeModel, nodeTip, SUB_Y } from './box-model';
import { NOTE_LINE, NOTE_PAD } from './callout';
import { s } from './dom';
import { heatStyle } from './heat';
import { type Box, HEADER } from './hier-layout';
import type { Scene } from './scene';

export { BADGE_ROW_H } from './box-model';

export function drawNode(sc: Scene, b: Box, onClick: (id: string) => void): SVGElement {
  const d = sc.doc;
  const m = nodeModel(sc, b);
  const g = s(d, 'g', {
    class: `pl-node pl-role-${m.role}`,
    'data-id': m.id,
    'data-role': m.role,
    transform: `translate(${b.x - b.w / 2},${b.y - b.h / 2})`,
  });
  // role colours come from the stylesheet (.pl-role-*); a sharing group's fill is the model's
  g.appendChild(
    s(d, 'rect', {
      class: 'pl-box',
      width: b.w,
      height: b.h,
      rx: NODE_RADIUS,
      style: m.fill.kind === 'sharing' ? `fill:${m.fill.color}` : undefined,
    }),
  );
  if (m.fill.kind === 'heat') {
    // the stylesheet picks the light or dark fill for the theme
    g.classList.add('pl-heated');
    g.setAttribute('style', `--pl-hl:${m.fill.light};--pl-hd:${m.fill.dark}`);
  }
  g.appendChild(s(d, 'text', { class: 'pl-label', x: m.textX, y: LABEL_Y, 'text-anchor': 'middle' }, m.label));
  g.appendChild(s(d, 'text', { class: 'pl-sub', x: m.textX, y: SUB_Y, 'text-anchor': 'middle' }, m.sub));
  const a = m.annotation;
  if (a) {
    const dot = s(d, 'circle', {
      class: `pl-annotated-mark${a.on ? '' : ' pl-off'}`,
      cx: a.x,
      cy: a.y,
      r: a.r,
      'stroke-width': 1.2,
    });
    dot.appendChild(s(d, 'title', undefined, a.title));
    g.appendChild(dot);
  }
  const sp = m.spec;
  if (sp) {
    const badge = s(d, 'g', { class: 'pl-badge', 'data-spec': sp.spec, transform: `translate(${sp.x},${sp.y})` });
    badge.appendChild(s(d, 'rect', { width: sp.w, height: sp.h, rx: 3, style: `fill:${sp.color}` }));
    badge.appendChild(s(d, 'text', { x: sp.w / 2, y: 10, 'text-anchor': 'middle' }, sp.text));
    badge.appendChild(s(d, 'title', undefined, sp.title));
    g.appendChild(badge);
  }
  const heat = m.heat;
  if (heat) {
    // a bar along the left edge in the overlay's colour (e.g. SQNR), value in the tooltip and details
    const bar = s(d, 'rect', {
      class: 'pl-heat',
      x: 0,
      y: 0,
      width: heat.w,
      height: b.h,
      rx: 3,
      fill: heat.color,
      style: heatStyle(heat.color),
      'data-value': heat.value as string,
    });
    bar.appendChild(s(d, 'title', undefined, heat.text));
    g.appendChild(bar);
  }
  const oc = m.outcome; // a lowered stage: what the backend made of it (text via textContent: never markup)
  if (oc) {
    const pill = s(d, 'g', {
      class: `pl-outcome pl-outcome-${oc.outcome}`,
      'data-outcome': oc.outcome,
      transform: `translate(${oc.x},${oc.y})`,
    });
    pill.appendChild(s(d, 'rect', { width: oc.w, height: oc.h, rx: 3, style: `fill:${oc.color}` }));
    pill.appendChild(s(d, 'text', { x: oc.w / 2, y: 9, 'text-anchor': 'middle' }, oc.text));
    pill.appendChild(s(d, 'title', undefined, oc.title));
    g.appendChild(pill);
  }
  if (m.note) g.appendChild(callout(sc, b));
  g.appendChild(s(d, 'title', undefined, nodeTip(sc, m.id).join('\n')));
  g.addEventListener('click', (e) => {
    e.stopPropagation();
    onClick(m.id);
  });
  return g;
}

/** A note's callout box to the right of its node (coordinates relative to the node's corner). */
function callout(sc: Scene, b: Box): SVGElement {
  const d = sc.doc;
  const c = b.note!;
  const x = c.x - (b.x - b.w / 2);
  const y = c.y - (b.y - b.h / 2);
  const g = s(d, 'g', { class: 'pl-callout' });
  g.appendChild(s(d, 'path', { d: `M${b.w},${b.h / 2} L${x},${b.h / 2}` }));
  g.appendChild(s(d, 'rect', { x, y, width: c.w, height: c.h, rx: 4 }));
  c.lines.forEach((line, i) => {
    g.appendChild(s(d, 'text', { x: x + NOTE_PAD, y: y + NOTE_PAD + 11 + i * NOTE_LINE }, line));
  });
  return g;
}

/** A row of badges saying what a closed group holds. */
function badgeRow(d: Document, bs: GroupModel['badges']): SVGElement {
  const [x0, y0] = [bs[0].x, bs[0].y];
  const row = s(d, 'g', { class: 'pl-gbadges', transform: `translate(${x0},${y0})` });
  for (const c of bs) {
    const g = s(d, 'g', {
      class: `pl-gbadge pl-gbadge-${c.kind}`,
      'data-kind': c.kind,
      transform: `translate(${c.x - x0},${c.y - y0})`,
    });
    g.appendChild(s(d, 'rect', { width: c.w, height: c.h, rx: 7, style: `stroke:${c.color}` }));
    g.appendChild(s(d, 'text', { x: c.w / 2, y: 11, 'text-anchor': 'middle', style: `fill:${c.color}` }, c.text));
    g.appendChild(s(d, 'title', undefined, c.title));
    row.appendChild(g);
  }
  return row;
}

export function drawGroup(sc: Scene, b: Box, onToggle: (key: string) => void): SVGElement {
  const d = sc.doc;
  const m = groupModel(sc, b);
  const collapsed = m.kind === 'collapsed';
  const g = s(d, 'g', {
    class: `pl-group ${collapsed ? 'pl-collapsed' : 'pl-expanded'}`,
    'data-group': m.group,
    transform: `translate(${b.x - b.w / 2},${b.y - b.h / 2})`,
  });
  g.appendChild(s(d, 'rect', { class: 'pl-gbox', width: b.w, height: b.h, rx: m.radius }));
  if (collapsed) {
    g.appendChild(s(d, 'text', { class: 'pl-glabel', x: m.labelX, y: m.labelY }, m.label));
    g.appendChild(s(d, 'text', { class: 'pl-gsub', x: m.labelX, y: 33 }, m.sub ?? ''));
    if (m.badges.length) g.appendChild(badgeRow(d, m.badges));
    if (m.summary) setSummaryData(g, m.summary);
    if (m.allFp32) g.classList.add('pl-all-fp32');
  } else {
    g.appendChild(
      s(d, 'rect', { class: 'pl-ghead', width: b.w, height: HEADER, fill: 'transparent', style: 'cursor:pointer' }),
    );
    g.appendChild(s(d, 'text', { class: 'pl-glabel', x: m.labelX, y: m.labelY }, m.label));
  }
  g.appendChild(s(d, 'title', undefined, groupTip(sc, m.group, collapsed)));
  const onClick = (e: Event): void => {
    e.stopPropagation();
    onToggle(m.group);
  };
  if (collapsed) g.addEventListener('click', onClick);
  else
    g.querySelectorAll('.pl-ghead, .pl-glabel').forEach((t) => {
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
