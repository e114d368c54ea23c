// The panel's language: JupyterLab's own setting (its ITranslator, `zh-TW` / `zh_TW` / `en-US`), falling back to
// the page's `<html lang>` when JupyterLab gives no translator, and to English for a language with no catalogue.
import type { ITranslator } from '@jupyterlab/translation';
import { resolveLocale } from '../../core/i18n';

export function panelLocale(translator: Pick<ITranslator, 'languageCode'> | null, doc: Document): string {
  return resolveLocale(translator?.languageCode || doc.documentElement.lang);
}
