// A pane's findings as one line per rule (`kind`), each expandable into its entries; an entry's node names are
// buttons that centre and select the node. Hundreds of fp32-island findings were hundreds of paragraphs above
// the graph: now they are one closed line below it, and the entries are built only when opened.
import { h } from './dom';
import { named, type Tr } from './i18n';
import type { Finding, Id } from './types';

/** node names shown per entry (the rest is counted) */
const NODES_PER_ENTRY = 6;

export interface FindingGroup {
  kind: string;
  /** the rule's own title when the JSON has one (an optional Finding field), else null */
  title: string | null;
  findings: Finding[];
}

/** Findings grouped by `kind`, in the order each kind first appears. */
export function groupFindings(fs: Finding[]): FindingGroup[] {
  const out = new Map<string, FindingGroup>();
  for (const f of fs) {
    let g = out.get(f.kind);
    if (!g) {
      const title = (f as { title?: unknown }).title;
      g = { kind: f.kind, title: typeof title === 'string' && title ? title : null, findings: [] };
      out.set(f.kind, g);
    }
    g.findings.push(f);
  }
  return [...out.values()];
}

/** The one line a group shows closed. */
export function groupLine(g: FindingGroup, t: Tr): string {
  const kind = g.title ?? named(t, 'finding.kind.', g.kind);
  if (g.findings.length === 1) return t('ui.finding_line', { kind, message: g.findings[0].message });
  return t('ui.views.findings_group', { n: g.findings.length, kind });
}

function entry(d: Document, f: Finding, pick: (id: Id) => void, t: Tr): HTMLElement {
  const li = h(d, 'li');
  for (const id of f.nodes.slice(0, NODES_PER_ENTRY)) {
    const b = h(d, 'button', { type: 'button', class: 'pl-flink', title: t('ui.show_in_graph', { id }) }, id);
    b.addEventListener('click', () => pick(id));
    li.append(b, ' ');
  }
  if (f.nodes.length > NODES_PER_ENTRY) li.append(`+${f.nodes.length - NODES_PER_ENTRY} `);
  li.append(h(d, 'span', { class: 'pl-fmsg' }, f.message));
  return li;
}

/** The findings block of a pane (always there, maybe empty: compare panes line up their rows). */
export function findingsList(d: Document, fs: Finding[], pick: (id: Id) => void, t: Tr): HTMLElement {
  const box = h(d, 'div', { class: 'pl-findings' });
  for (const g of groupFindings(fs)) {
    const det = h(d, 'details', { class: 'pl-fgroup', 'data-kind': g.kind, 'data-count': g.findings.length });
    const sum = h(d, 'summary', { title: groupLine(g, t) });
    sum.append(h(d, 'span', { class: 'pl-fline' }, `⚠ ${groupLine(g, t)}`));
    const hint = h(d, 'span', { class: 'pl-fhint' }, t('ui.views.show'));
    sum.append(hint);
    det.append(sum);
    let list: HTMLElement | null = null;
    det.addEventListener('toggle', () => {
      hint.textContent = t(det.open ? 'ui.views.hide' : 'ui.views.show');
      if (!det.open || list) return;
      list = h(d, 'ul', { class: 'pl-fentries' });
      for (const f of g.findings) list.appendChild(entry(d, f, pick, t));
      det.append(list);
    });
    box.appendChild(det);
  }
  return box;
}
