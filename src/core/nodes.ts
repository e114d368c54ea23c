// SVG painting of a pane's node and group boxes: each element from a frame's box (frame.ts) and its box model
// (box-model.ts), which says what it shows; role colours and marks come from the stylesheet's pl-* classes, the
// rest from the model.
import type { Summary } from './badges';
import { type Chip, type GroupModel, LABEL_Y, NODE_RADIUS, type NodeModel, SUB_Y } from './box-model';
import { NOTE_LINE, NOTE_PAD } from './callout';
import { s } from './dom';
import type { FrameBox, FrameTexts } from './frame';
import { HEADER } from './hier-layout';
import { flipShift, type Side } from './note-side';

export { BADGE_ROW_H } from './box-model';

/** What the SVG painters draw with: the document, the frame's texts, and the arrowhead marker of a colour in the
 * drawing's <defs> (by id). */
export interface SvgPaint {
  doc: Document;
  texts: FrameTexts;
  marker(color: string): string;
}

export function drawNode(p: SvgPaint, b: FrameBox, onClick: (id: string) => void): SVGElement {
  const d = p.doc;
  const m = p.texts.box(b.key) as NodeModel;
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
  // text via textContent: a spec id or kernel name is never markup
  if (m.spec) g.appendChild(chip(d, { class: 'pl-badge', 'data-spec': m.spec.spec }, m.spec, 10, 3, 'fill'));
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
      // the same hue at the theme's lightness, so the bar keeps its contrast in a dark theme
      style: `fill:hsl(${heat.hue} 72% var(--pl-heat-l))`,
      'data-value': heat.value as string,
    });
    bar.appendChild(s(d, 'title', undefined, heat.text));
    g.appendChild(bar);
  }
  const oc = m.outcome; // a lowered stage: what the backend made of it
  if (oc)
    g.appendChild(
      chip(d, { class: `pl-outcome pl-outcome-${oc.outcome}`, 'data-outcome': oc.outcome }, oc, 9, 3, 'fill'),
    );
  const gc = m.groupChip;
  if (gc) g.appendChild(chip(d, { class: 'pl-gchip', 'data-group': String(gc.group) }, gc, 9, 6, 'stroke'));
  if (m.note) g.appendChild(callout(d, b));
  g.appendChild(s(d, 'title', undefined, p.texts.tip(b.key)));
  g.addEventListener('click', (e) => {
    e.stopPropagation();
    onClick(m.id);
  });
  return g;
}

/** A note's callout box to the right of its node (coordinates relative to the node's corner). */
function callout(d: Document, b: FrameBox): SVGElement {
  const c = b.note!;
  const x = c.x - (b.x - b.w / 2);
  const y = c.y - (b.y - b.h / 2);
  const g = s(d, 'g', { class: 'pl-callout', 'data-side': 'right' });
  g.appendChild(s(d, 'path', { d: `M${b.w},${b.h / 2} L${x},${b.h / 2}` }));
  // the box and its text in a group of their own: flipNote moves them to the node's left
  const body = s(d, 'g');
  body.appendChild(s(d, 'rect', { x, y, width: c.w, height: c.h, rx: 4 }));
  c.lines.forEach((line, i) => {
    body.appendChild(s(d, 'text', { x: x + NOTE_PAD, y: y + NOTE_PAD + 11 + i * NOTE_LINE }, line));
  });
  g.appendChild(body);
  return g;
}

/** Show a node's callout (drawn by drawNode) on `side` of its node (note-side.ts). */
export function flipNote(el: SVGElement, b: FrameBox, side: Side): void {
  const g = el.querySelector(':scope > .pl-callout');
  if (!g || !b.note || g.getAttribute('data-side') === side) return;
  g.setAttribute('data-side', side);
  const x = b.note.x - (b.x - b.w / 2);
  const shift = side === 'left' ? flipShift(b) : 0;
  const [path, body] = [g.firstElementChild, g.lastElementChild];
  path?.setAttribute(
    'd',
    side === 'left' ? `M0,${b.h / 2} L${x + shift + b.note.w},${b.h / 2}` : `M${b.w},${b.h / 2} L${x},${b.h / 2}`,
  );
  if (shift) body?.setAttribute('transform', `translate(${shift},0)`);
  else body?.removeAttribute('transform');
}

/** A chip (spec badge, outcome pill, group badge): a rounded rect filled (or framed) in its colour, centred text
 * (in its colour when framed), its tooltip. */
function chip(
  d: Document,
  attrs: Record<string, string>,
  c: Chip,
  ty: number,
  rx: number,
  paint: 'fill' | 'stroke',
): SVGElement {
  const g = s(d, 'g', { ...attrs, transform: `translate(${c.x},${c.y})` });
  g.append(
    s(d, 'rect', { width: c.w, height: c.h, rx, style: `${paint}:${c.color}` }),
    s(
      d,
      'text',
      { x: c.w / 2, y: ty, 'text-anchor': 'middle', style: paint === 'stroke' ? `fill:${c.color}` : undefined },
      c.text,
    ),
    s(d, 'title', undefined, c.title),
  );
  return g;
}

export function drawGroup(p: SvgPaint, b: FrameBox, onToggle: (key: string) => void): SVGElement {
  const d = p.doc;
  const m = p.texts.box(b.key) as GroupModel;
  const collapsed = m.kind === 'collapsed';
  const g = s(d, 'g', {
    class: `pl-group ${collapsed ? 'pl-collapsed' : 'pl-expanded'}`,
    'data-group': m.group,
    'data-total': m.total,
    transform: `translate(${b.x - b.w / 2},${b.y - b.h / 2})`,
  });
  g.appendChild(s(d, 'rect', { class: 'pl-gbox', width: b.w, height: b.h, rx: m.radius }));
  if (collapsed) {
    g.appendChild(s(d, 'text', { class: 'pl-glabel', x: m.labelX, y: m.labelY }, m.label));
    g.appendChild(s(d, 'text', { class: 'pl-gsub', x: m.labelX, y: 33 }, m.sub ?? ''));
    // a row of badges saying what the group holds
    const row = s(d, 'g', { class: 'pl-gbadges' });
    for (const c of m.badges)
      row.appendChild(chip(d, { class: `pl-gbadge pl-gbadge-${c.kind}`, 'data-kind': c.kind }, c, 11, 7, 'stroke'));
    if (m.badges.length) g.appendChild(row);
    if (m.summary) setSummaryData(g, m.summary);
    if (m.allFp32) g.classList.add('pl-all-fp32');
  } else {
    g.appendChild(
      s(d, 'rect', { class: 'pl-ghead', width: b.w, height: HEADER, fill: 'transparent', style: 'cursor:pointer' }),
    );
    g.appendChild(s(d, 'text', { class: 'pl-glabel', x: m.labelX, y: m.labelY }, m.label));
  }
  g.appendChild(s(d, 'title', undefined, p.texts.tip(b.key)));
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
