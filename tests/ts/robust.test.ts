import { describe, expect, it } from 'vitest';
import { fixture, mount } from './helpers';

describe('inconsistent but schema-valid input', () => {
  it('renders without throwing when ids point nowhere', async () => {
    const view = fixture('compare.json');
    const s0 = view.panes[0].snapshot;
    s0.edges.push({ src: 'ghost', dst: 'relu', arg: 5 }, { src: 'relu', dst: 'nowhere', arg: 0 });
    s0.annotations.push({
      node: 'ghost',
      inputs: [{ src: 'nobody', spec: 's99' }],
      output: 's42',
      annotated: true,
      allow_implicit_sharing: true,
      quantizer: null,
    });
    s0.annotations[0].inputs.push({ src: 'phantom', spec: 's77' });
    s0.observers[0].observes = 'ghost';
    s0.observers[0].serves.push({ at: { edge: ['a', 'b'] }, spec: 'zz', via: 'own' });
    s0.specs.push({ ...s0.specs[2], id: 's9', shared_with: { node: 'ghost' } });
    s0.annotations[1].output = 's9';
    s0.findings.push({ kind: 'decomposed', message: 'about ghosts', nodes: ['ghost'] });
    s0.nodes.find((n: any) => n.id === 'relu').observer = 'o404';
    view.diffs[0].kept.push(['ghost', 'ghost2']);
    view.diffs[0].became.ghost = ['relu'];
    view.diffs[0].removed.push('ghost');
    view.focus = null;
    view.notes = [{ ghost: 'boo', relu: 'real' }];
    const { el } = await mount(view, { worker: false });
    expect(el.querySelector('.pt2e-lens')!.getAttribute('data-state')).toBe('ready');
    const [p0, p1] = [...el.querySelectorAll('.pl-pane')];
    expect(p0.querySelectorAll('.pl-node').length).toBe(s0.nodes.length);
    expect(p1.querySelectorAll('.pl-node').length).toBe(view.panes[1].snapshot.nodes.length);
    for (const id of ['relu', 'adaptive_avg_pool2d', 'conv2d']) {
      p0.querySelector(`[data-id="${id}"]`)!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      expect(p0.querySelector('.pl-details')!.textContent).toContain(id);
    }
  });

  it('focus naming unknown nodes shows the known ones only', async () => {
    const view = fixture('focus.json');
    view.focus[0].push('ghost');
    const { el } = await mount(view, { worker: false });
    expect(el.querySelectorAll('.pl-node').length).toBe(view.focus[0].length - 1);
  });

  it('a focus list with no known node says so', async () => {
    const view = fixture('focus.json');
    view.focus = [['ghost']];
    const { el } = await mount(view, { worker: false });
    expect(el.querySelector('.pl-empty')!.textContent).toBe('no node of this graph is in focus');
  });
});
