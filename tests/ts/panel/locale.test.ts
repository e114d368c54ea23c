// The panel follows JupyterLab's own language setting (its ITranslator), falling back to English. JupyterLab's
// zh-TW language pack is not installed in the tests, so JupyterLab's real TranslationManager is driven here with
// an empty catalogue: its languageCode is what the setting says either way.
import { TranslationManager } from '@jupyterlab/translation';
import { describe, expect, it } from 'vitest';
import { translator } from '../../../src/core/i18n';
import { panelLocale } from '../../../src/lab/panel/locale';
import { LensModel } from '../../../src/lab/panel/model';
import { fixture } from '../helpers';
import { FakeKernel, FakeNotebook, FakeTracker, flush } from './fakes';

(globalThis as Record<string, unknown>).DragEvent ??= class DragEvent extends MouseEvent {};
const { LensPanel } = await import('../../../src/lab/panel/panel');

/** JupyterLab's translator after it read the `locale` setting (`zh_TW`, as its settings spell it). */
async function jupyterlabTranslator(setting: string): Promise<TranslationManager> {
  const m = new TranslationManager('', undefined, undefined, {
    fetch: async () => ({ data: {}, message: '' }),
  } as never);
  await m.fetch(setting);
  return m;
}

describe("the panel's language", () => {
  it("is JupyterLab's setting, read from its ITranslator", async () => {
    const tr = await jupyterlabTranslator('zh_TW');
    expect(tr.languageCode).toBe('zh-TW');
    expect(panelLocale(tr, document)).toBe('zh-TW');
    const panel = new LensPanel(new LensModel(new FakeTracker() as never), panelLocale(tr, document));
    const zh = translator('zh-TW');
    expect(panel.title.caption).toBe(zh('ui.panel.caption'));
    expect(panel.node.textContent).toBe(zh('ui.panel.open_notebook'));
    expect(panel.node.getAttribute('lang')).toBe('zh-TW');
    panel.dispose();
  });

  it("beats the page's <html lang>; English when JupyterLab's language has no catalogue", async () => {
    document.documentElement.lang = 'zh-TW';
    try {
      expect(panelLocale(await jupyterlabTranslator('en'), document)).toBe('en');
      expect(panelLocale(await jupyterlabTranslator('fr_FR'), document)).toBe('en');
      expect(panelLocale(await jupyterlabTranslator('default'), document)).toBe('en');
      expect(panelLocale(null, document)).toBe('zh-TW'); // no translator plugin: the page's language
    } finally {
      document.documentElement.lang = '';
    }
    const panel = new LensPanel(new LensModel(new FakeTracker() as never), 'fr-FR');
    expect(panel.node.textContent).toBe(translator('en')('ui.panel.open_notebook'));
    panel.dispose();
  });
});

describe("the panel's picker under a chapter that chose its language", () => {
  it('speaks the locale the shown view was made in (course_setup("zh-TW")), over JupyterLab\'s English', async () => {
    const view = { ...fixture('conv_prepared.json'), locale: 'zh-TW' };
    const kernel = new FakeKernel();
    kernel.loaded = true;
    kernel.replies = { get_stage: { name: 'run', stage: 'prepared', group: '', collapsed: false, view } };
    const tracker = new FakeTracker();
    tracker.activate(new FakeNotebook(kernel, 'a.ipynb'));
    const panel = new LensPanel(new LensModel(tracker as never), 'en');
    document.body.appendChild(panel.node);
    const picker = () => panel.node.querySelector('select.pl-model-picker');
    for (let i = 0; i < 20 && !picker()?.textContent?.includes('最新'); i++) await flush();
    const zh = translator('zh-TW');
    expect(picker()!.querySelector('option')!.textContent).toBe(zh('ui.panel.newest', { name: 'run' }));
    expect(panel.node.querySelector('.pl-current')!.textContent).toBe(zh('ui.panel.nodes', { n: 47 }));
    expect(picker()!.textContent).not.toMatch(/newest|nodes/);
    panel.dispose();
  });
});

describe("the palette's commands", () => {
  it("speak JupyterLab's language, from our catalogues", async () => {
    const { commandLabels } = await import('../../../src/lab/panel/command-labels');
    const zh = commandLabels(panelLocale(await jupyterlabTranslator('zh_TW'), document));
    expect(zh).toEqual({
      open: 'PT2E：開啟 pt2e-lens 面板',
      load: 'PT2E：在這個 kernel 載入 pt2e-lens',
      exportReport: 'PT2E：匯出目前模型的報告',
    });
    expect(commandLabels(panelLocale(await jupyterlabTranslator('en'), document)).open).toBe(
      'PT2E: Open the pt2e-lens panel',
    );
  });
});
