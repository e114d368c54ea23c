// The words of the UI in the view's language. The catalogues are the Python package's
// (kernel_pkg/pt2e_lens/locales/*.json, bundled by scripts/build.mjs): one key set for both languages.
import { CATALOGUES } from './locales.generated';

/** A translator bound to one locale: t('ui.fit'), t('ui.rows', { n: 3, total: 9 }). */
export type Tr = (key: string, params?: Record<string, string | number>) => string;

export const DEFAULT_LOCALE = 'en';

export function locales(): string[] {
  return Object.keys(CATALOGUES).sort();
}

/** `zh_TW`, `zh-tw`, `zh-Hant-TW` → `zh-TW`; `en-US` → `en`; unknown or empty → English. */
export function resolveLocale(lang: string | null | undefined): string {
  if (!lang) return DEFAULT_LOCALE;
  const parts = lang
    .trim()
    .replace(/_/g, '-')
    .split('-')
    .filter((p) => p.toLowerCase() !== 'hant');
  const names = new Map(locales().map((n) => [n.toLowerCase(), n]));
  for (const cand of [parts.join('-'), parts[0]]) {
    const hit = names.get(cand.toLowerCase());
    if (hit) return hit;
  }
  return DEFAULT_LOCALE;
}

export function fill(text: string, params?: Record<string, string | number>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** The translator of a locale: a missing key falls back to English, then to the key itself. */
export function translator(lang?: string | null): Tr {
  const loc = resolveLocale(lang);
  const cat = CATALOGUES[loc] ?? {};
  const en = CATALOGUES[DEFAULT_LOCALE] ?? {};
  return (key, params) => fill(cat[key] ?? en[key] ?? key, params);
}

/** A name the data spells (a table column, a finding kind) in the UI's words: `t(prefix + name)` when the
 * catalogue has it, else the name as it is. */
export function named(t: Tr, prefix: string, name: string): string {
  const key = prefix + name;
  const text = t(key);
  return text === key ? name : text;
}

/** English: what a caller gets when no host said otherwise. */
export const EN: Tr = translator(DEFAULT_LOCALE);
