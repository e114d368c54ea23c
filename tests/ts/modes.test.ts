import { describe, expect, it } from 'vitest';
import { fixture, mount } from './helpers';

const click = (e: Element) => e.dispatchEvent(new MouseEvent('click', { bubbles: true }));

describe('run, focus, tables, details', () => {
  it('run mode: a tab per table and a stage tab per pane; stages render on demand', async () => {
    const view = fixture('run.json');
    const { el, handle } = await mount(view, { worker: false });
    const main = [...el.querySelectorAll('.pl-main-tabs .pl-tab')].map((t) => t.textContent);
    expect(main).toEqual(['Graph', 'Annotations', 'Observers', 'Q/DQ', 'Decomposition', 'Op diff']);
    const stages = [...el.querySelectorAll('.pl-stage-tabs .pl-tab')];
    expect(stages.map((t) => t.textContent)).toEqual(['exported', 'prepared', 'calibrated', 'converted']);
    expect(stages[3].getAttribute('aria-selected')).toBe('true');
    expect(el.querySelectorAll('.pl-node').length).toBe(view.panes[3].snapshot.nodes.length);
    click(stages[1]);
    await Promise.all(handle.panes.filter(Boolean).map((p) => p.ready));
    const visible = [...el.querySelectorAll('.pl-pane')].filter((p) => (p as HTMLElement).style.display !== 'none');
    expect(visible.length).toBe(1);
    expect(visible[0].querySelectorAll('.pl-node[data-role="observer"]').length).toBe(
      view.panes[1].snapshot.nodes.filter((n: any) => n.role === 'observer').length,
    );
    // before calibration an observer has no statistics: the details say so instead of inventing numbers
    click(visible[0].querySelector('[data-id="activation_post_process_2"]')!);
    const det = visible[0].querySelector('.pl-details')!.textContent!;
    expect(det).toMatch(/min—max—scale—zero_point—/);
    // selection follows to the next stage through the diffs
    click(stages[2]);
    await Promise.all(handle.panes.filter(Boolean).map((p) => p.ready));
    await new Promise((r) => setTimeout(r, 0));
    const cal = [...el.querySelectorAll('.pl-pane')].find((p) => (p as HTMLElement).style.display !== 'none')!;
    expect([...cal.querySelectorAll('.pl-selected')].map((e) => e.getAttribute('data-id'))).toEqual([
      'activation_post_process_2',
    ]);
    expect(cal.querySelector('.pl-details')!.textContent).toContain('[3.12]');
    expect(handle.panes[2].selected).toBe('activation_post_process_2');
    click(el.querySelectorAll('.pl-main-tabs .pl-tab')[2]);
    const obsTable = el.querySelector('[data-tab="observers"] table')!;
    expect(obsTable.querySelectorAll('tbody tr').length).toBe(
      view.tables.find((t: any) => t.name === 'observers').rows.length,
    );
  });

  it('stage tabs: a node with no counterpart in the new stage leaves nothing selected and the drawer closed', async () => {
    const view = fixture('run.json');
    const { el, handle } = await mount(view, { worker: false });
    const stages = [...el.querySelectorAll('.pl-stage-tabs .pl-tab')];
    const drawerOf = (i: number) => el.querySelectorAll('.pl-pane')[i]?.querySelector('.pl-drawer') as HTMLElement;
    const settle = async () => {
      await Promise.all(handle.panes.filter(Boolean).map((p) => p.ready));
      await new Promise((r) => setTimeout(r, 0));
    };
    // converted (open first): the pane index in the DOM is the order panes were made, so find by handle
    const conv = handle.panes[3];
    await conv.select('quantize_per_tensor_default_1', { notify: true });
    click(stages[0]); // exported: q/dq were made by convert, observers by prepare — no counterpart
    await settle();
    expect(handle.panes[0].selected).toBeNull();
    expect(el.querySelectorAll('.pl-pane')[1].querySelector('.pl-selected')).toBeNull();
    expect(drawerOf(1).hasAttribute('hidden')).toBe(true);
    // back to converted: nothing was selected in exported, so nothing stays selected in converted either
    click(stages[3]);
    await settle();
    expect(conv.selected).toBeNull();
    expect(drawerOf(0).hasAttribute('hidden')).toBe(true);
    // a node kept by every stage follows all the way
    await conv.select('relu', { notify: true });
    click(stages[0]);
    await settle();
    expect(handle.panes[0].selected).toBe('relu');
    expect(drawerOf(1).hasAttribute('hidden')).toBe(false);
  });

  it('a table row naming a node shows that node in the graph', async () => {
    const view = fixture('run.json');
    const { el, handle } = await mount(view, { worker: false });
    click(el.querySelectorAll('.pl-main-tabs .pl-tab')[3]); // Q/DQ (converted stage)
    const row = [...el.querySelectorAll('[data-tab="qdq"] tbody tr')].find(
      (r) => r.children[0].textContent === 'quantize_per_tensor_default_1',
    )!;
    click(row);
    await handle.panes[3].ready;
    await new Promise((r) => setTimeout(r, 0));
    expect((el.querySelector('[data-tab="graph"]') as HTMLElement).style.display).toBe('');
    expect(el.querySelector('.pl-node.pl-selected')!.getAttribute('data-id')).toBe('quantize_per_tensor_default_1');
    click(el.querySelectorAll('.pl-main-tabs .pl-tab')[1]); // Annotations: prepared-stage rows
    const ann = [...el.querySelectorAll('[data-tab="annotations"] tbody tr')].find(
      (r) => r.children[0].textContent === 'relu',
    )!;
    click(ann);
    await new Promise((r) => setTimeout(r, 0));
    expect(el.querySelector('.pl-stage-tabs .pl-tab[aria-selected="true"]')!.textContent).toBe('converted');
  });

  it("the backend table's tab has a short label; its whole title stays above the rows", async () => {
    const view = fixture('run.json');
    const title = 'Backend inductor: 12 int8 kernels, 3 fp32, 1 not lowered (freezing on)';
    view.tables.push({ ...view.tables.find((t: any) => t.name === 'observers'), name: 'backend', title });
    for (const locale of ['en', 'zh-TW']) {
      const { el } = await mount(view, { worker: false, locale });
      const main = [...el.querySelectorAll('.pl-main-tabs .pl-tab')].map((t) => t.textContent);
      expect(main.at(-1)).toBe(locale === 'en' ? 'Backend' : '後端');
      click(el.querySelectorAll('.pl-main-tabs .pl-tab')[main.length - 1]);
      expect(el.querySelector('[data-tab="backend"]')!.textContent).toContain(title);
    }
  });

  it('tables sort by column and filter rows', async () => {
    const view = fixture('tables.json');
    const { el } = await mount(view, { worker: false });
    const wrap = el.querySelector('[data-table="observers"]')!;
    const col = view.tables.find((t: any) => t.name === 'observers').columns.indexOf('min');
    const th = wrap.querySelectorAll('th')[col];
    click(th);
    const mins = () => [...wrap.querySelectorAll('tbody tr')].map((r) => Number(r.children[col].textContent));
    const asc = mins();
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    click(th);
    expect(mins()).toEqual([...asc].reverse());
    const input = wrap.querySelector('input')!;
    input.value = 'PerChannel';
    input.dispatchEvent(new Event('input'));
    expect(wrap.querySelectorAll('tbody tr').length).toBe(3);
    expect(wrap.querySelector('.pl-status')!.textContent).toBe('3 of 8 rows');
  });

  it('focus shows only the focus nodes; notes attach to nodes', async () => {
    const view = fixture('focus.json');
    const { el } = await mount(view, { worker: false });
    const ids = [...el.querySelectorAll('.pl-node')].map((n) => n.getAttribute('data-id')).sort();
    expect(ids).toEqual([...view.focus[0]].sort());
    expect(el.querySelector('[data-id="relu"] .pl-callout')!.textContent).toBe('✎ fused with conv1');
  });

  it('details show annotation, observer stats and q/dq params', async () => {
    const prep = await mount(fixture('conv_prepared.json'), { worker: false });
    click(prep.el.querySelector('[data-id="activation_post_process_5"]')!);
    const d = prep.el.querySelector('.pl-details')!.textContent!;
    expect(d).toContain('HistogramObserver');
    expect(d).toContain('activation_post_process_5, activation_post_process_6');
    expect(d).toContain('[-0.9]');
    expect(d).toContain('[0.02078]');
    click(prep.el.querySelector('[data-id="adaptive_avg_pool2d"]')!);
    const d2 = prep.el.querySelector('.pl-details')!.textContent!;
    expect(d2).toContain('s2: SharedQuantizationSpec');
    expect(d2).toContain('shared with edge add → adaptive_avg_pool2d');
    expect(d2).toContain('output spec is shared with its input edge');
    expect(prep.el.querySelectorAll('.pl-shared').length).toBe(1);
    const conv = await mount(fixture('conv_converted.json'), { worker: false });
    click(conv.el.querySelector('[data-id="dequantize_per_channel_default"]')!);
    const d3 = conv.el.querySelector('.pl-details')!.textContent!;
    expect(d3).toContain('dequantize_per_channel (per_channel)');
    expect(d3).toContain('axis=0');
    // int8 edges: out of every quantize node and into every dequantize node (arg 0), frozen int8 weights included
    const cs = fixture('conv_converted.json').panes[0].snapshot;
    const int = cs.edges.filter(
      (e: any) => e.src.startsWith('quantize_per_tensor') || (e.dst.startsWith('dequantize_') && e.arg === 0),
    );
    expect(
      cs.edges.some(
        (e: any) => e.dst.startsWith('dequantize_per_channel') && e.arg === 0 && !e.src.startsWith('quantize'),
      ),
    ).toBe(true);
    expect(conv.el.querySelectorAll('.pl-edge.pl-int').length).toBe(
      new Set(int.map((e: any) => `${e.src}>${e.dst}`)).size,
    );
  });

  it('search finds nodes by name or op', async () => {
    const { el, handle } = await mount(fixture('conv_prepared.json'), { worker: false });
    const found = handle.panes[0].search('conv2d');
    expect(found.sort()).toEqual(['conv2d', 'conv2d_1']);
    expect(el.querySelectorAll('.pl-node.pl-match').length).toBe(2);
    expect(el.querySelectorAll('.pl-result').length).toBe(2);
  });
});
