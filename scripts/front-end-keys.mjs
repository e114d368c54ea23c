// Which catalogue keys the front end can look up, read from its source: the viewer bundles only these (the
// catalogues also hold the kernel's errors, warnings, CLI and course texts, ~70 % of them, which every saved
// output would otherwise carry). A key is kept when the TypeScript spells it as a string literal, or when it
// starts with a literal that a key is built on: a template's head (`t(\`ui.role.${r}\`)`), the left side of a
// `+` (`'ui.badge.' + kind`), or any literal ending in `.` (`named(t, 'col.', column)`).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Every `.ts` file under `dir` but the generated ones (they are made from the catalogues and the schema). */
export function sourceFiles(dir = 'src') {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith('.ts') && !p.endsWith('.generated.ts')) out.push(p);
  }
  return out.sort();
}

/** The string literals of some TypeScript ('…', "…", \`…\`) and the heads keys are built on, read from
 * TypeScript's own syntax tree (comments and regular expressions are no strings). */
export function literals(code) {
  const whole = new Set();
  const heads = new Set();
  const visit = (n) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
      whole.add(n.text);
      if (n.text.endsWith('.')) heads.add(n.text);
    } else if (ts.isTemplateExpression(n)) heads.add(n.head.text);
    else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      if (ts.isStringLiteral(n.left) || ts.isNoSubstitutionTemplateLiteral(n.left)) heads.add(n.left.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, false));
  return { whole, heads };
}

/** The keys of `keys` the source in `files` can look up, in the catalogue's order. */
export function frontEndKeys(keys, files = sourceFiles()) {
  const whole = new Set();
  const heads = new Set();
  for (const f of files) {
    const l = literals(readFileSync(f, 'utf8'));
    for (const x of l.whole) whole.add(x);
    for (const x of l.heads) if (x.includes('.')) heads.add(x); // a key's family is in its head: `ui.`, `col.`
  }
  return keys.filter((k) => whole.has(k) || [...heads].some((h) => k.startsWith(h)));
}
