// A one-line problem with an output (a bound breached, a damaged packed View), worded in the reader's language:
// `message` is English (what logs and callers without a translator read), `line(t)` the language of the View
// or page it is shown in. The texts are the catalogues' `output.*` keys, shared with the Python side.
import { EN, type Tr } from './i18n';

export const PREFIX = 'pt2e-lens: ';

export class OutputProblem extends Error {
  constructor(readonly line: (t: Tr) => string) {
    super(line(EN));
  }
}

/** What to show for an error caught while opening an output, in `t`'s language when it is ours. */
export function lineOf(e: unknown, t: Tr): string {
  return e instanceof OutputProblem ? e.line(t) : (e as Error).message;
}

/** The same problem with the product's name in front (`pt2e-lens: …`). */
export function prefixed(e: unknown): OutputProblem {
  return new OutputProblem((t) => PREFIX + lineOf(e, t));
}
