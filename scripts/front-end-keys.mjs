// Which catalogue keys the front end can look up, read from its source: the viewer bundles only these (the
// catalogues also hold the kernel's errors, warnings, CLI and course texts, ~70 % of them, which every saved
// output would otherwise carry). A key is kept when the TypeScript spells it as a string literal, or when a
// literal or a template's head ending in `.` starts it: `t(\`ui.role.${r}\`)`, `named(t, 'col.', column)`.

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

/** The string literals of some TypeScript ('…', "…", \`…\`, a template's text up to its first `\${`), read from
 * TypeScript's own syntax tree (comments and regular expressions are no strings). */
export function literals(code) {
  const found = new Set();
  const visit = (n) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) found.add(n.text);
    else if (ts.isTemplateExpression(n)) found.add(n.head.text);
    ts.forEachChild(n, visit);
  };
  visit(ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, false));
  return found;
}

/** The keys of `keys` the source in `files` can look up, in the catalogue's order. */
export function frontEndKeys(keys, files = sourceFiles()) {
  const lits = new Set();
  for (const f of files) for (const l of literals(readFileSync(f, 'utf8'))) lits.add(l);
  const prefixes = [...lits].filter((l) => l.length > 1 && l.endsWith('.'));
  return keys.filter((k) => lits.has(k) || prefixes.some((p) => k.startsWith(p)));
}
