// The palette's command labels in the panel's language (our catalogues, as the panel's own words).
import { translator } from '../../core/i18n';

export function commandLabels(locale: string): { open: string; load: string; exportReport: string } {
  const say = translator(locale);
  return { open: say('course.lab.open'), load: say('course.lab.load'), exportReport: say('course.lab.export') };
}
