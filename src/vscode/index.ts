// VS Code notebook renderer for application/vnd.pt2e-lens.v1+json (contributes.notebookRenderer).
import type { ActivationFunction } from 'vscode-notebook-renderer';
import { type RenderHandle, render } from '../core/index';

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
      live.set(item.id, render(element, doc));
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
