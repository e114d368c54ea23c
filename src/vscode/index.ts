// VS Code notebook renderer for application/vnd.pt2e-lens.v1+json (contributes.notebookRenderer).
import type { ActivationFunction } from 'vscode-notebook-renderer';
import { type RenderHandle, renderOutput } from '../core/index';

export const activate: ActivationFunction = () => {
  const live = new Map<string, RenderHandle>();
  return {
    renderOutputItem(item, element) {
      live.get(item.id)?.destroy();
      let doc: unknown;
      try {
        doc = item.json();
      } catch {
        doc = item.text();
      }
      // VS Code outputs sit in a webview with no lang of the editor: the display language it reports stands in
      // for the page's, so a View made under pl.set_locale still speaks its own language
      element.setAttribute('lang', navigator.language);
      live.set(item.id, renderOutput(element, doc));
    },
    disposeOutputItem(id?: string) {
      if (id === undefined) {
        for (const h of live.values()) h.destroy();
        live.clear();
      } else {
        live.get(id)?.destroy();
        live.delete(id);
      }
    },
  };
};
