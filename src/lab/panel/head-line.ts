// The panel's head as one line (issue 26.4): model picker, stage tabs and the node count side by side, so the graph
// starts near the panel's top. The picker shrinks (a select shows what fits of its choice; its title says it all);
// the stage tabs the line has no room for go into a "⋯" menu that names each in full. The tab on show always stays.
import { h } from '../../core/dom';
import type { Tr } from '../../core/i18n';

/** The stage tabs with their overflow menu: `bar` (the tablist) and `menu` go on the line, `fit` re-fits them. */
export interface StageTabs {
  bar: HTMLElement;
  menu: HTMLSelectElement;
  /** show the tabs that fit in `line`, the others in the menu (call after the line is laid out or resized) */
  fit(line: HTMLElement): void;
}

const MORE = '';

export function stageTabs(
  doc: Document,
  t: Tr,
  tabs: readonly string[],
  active: string | null,
  pick: (tab: string) => void,
): StageTabs {
  const bar = h(doc, 'div', { class: 'pl-tabs pl-panel-stages', role: 'tablist', 'aria-label': t('ui.panel.stage') });
  const buttons = tabs.map((tab) => {
    const b = h(
      doc,
      'button',
      { class: 'pl-tab', role: 'tab', type: 'button', 'aria-selected': String(tab === active), 'data-stage': tab },
      tab,
    );
    b.addEventListener('click', () => pick(tab));
    bar.appendChild(b);
    return b;
  });
  const menu = h(doc, 'select', {
    class: 'pl-stage-menu',
    'aria-label': t('ui.panel.more_stages'),
    title: t('ui.panel.more_stages'),
    hidden: '',
  }) as HTMLSelectElement;
  menu.addEventListener('change', () => {
    const tab = menu.value;
    menu.value = MORE;
    if (tab !== MORE) pick(tab);
  });
  const fill = (hidden: HTMLElement[]): void => {
    menu.replaceChildren(h(doc, 'option', { value: MORE }, '⋯'));
    for (const b of hidden) menu.appendChild(h(doc, 'option', { value: b.dataset.stage ?? '' }, b.dataset.stage ?? ''));
    menu.value = MORE;
    menu.hidden = hidden.length === 0;
  };
  const fit = (line: HTMLElement): void => {
    for (const b of buttons) b.hidden = false;
    fill([]);
    if (line.clientWidth === 0 || line.scrollWidth <= line.clientWidth) return; // not laid out, or it fits
    const hidden: HTMLElement[] = [];
    menu.hidden = false;
    // the last tabs first, never the one on show
    for (const b of buttons.slice().reverse()) {
      if (line.scrollWidth <= line.clientWidth) break;
      if (b.getAttribute('aria-selected') === 'true') continue;
      b.hidden = true;
      hidden.unshift(b);
    }
    fill(hidden);
  };
  return { bar, menu, fit };
}

/** The model picker: "newest: X" (follow) or a model by name; its title repeats its choice in full. */
export function pickerSelect(
  doc: Document,
  label: string,
  options: ReadonlyArray<[value: string, text: string]>,
  value: string,
  onPick: (value: string) => void,
): HTMLSelectElement {
  const select = h(doc, 'select', { 'aria-label': label, class: 'pl-model-picker' }) as HTMLSelectElement;
  for (const [v, text] of options) select.appendChild(h(doc, 'option', { value: v }, text));
  select.value = value;
  const titled = (): void => {
    select.title = select.selectedOptions[0]?.textContent ?? '';
  };
  titled();
  select.addEventListener('change', () => {
    titled();
    onPick(select.value);
  });
  return select;
}
