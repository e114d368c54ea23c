// The TypeScript layers (docs/architecture.md): src/core is the one rendering core and imports no host; each host
// (src/lab, src/widget, src/vscode, src/report) imports only the core and its own files, never another host; the
// core uses no host's packages (JupyterLab, Lumino, anywidget, VS Code). Read from the sources' import lines.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'src');
const HOSTS = ['lab', 'widget', 'vscode', 'report'];
const HOST_PACKAGES = /^(@jupyterlab\/|@lumino\/|@anywidget\/|vscode-notebook-renderer$|vscode$)/;

/** Every module specifier a source names: static and type imports, re-exports, side-effect and dynamic imports. */
function specifiers(source: string): string[] {
  const out: string[] = [];
  const re =
    /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of source.matchAll(re)) out.push(m[1] ?? m[2]);
  return out;
}

/** The layer of a file under src/ (`core` or a host), from its path relative to src/. */
const layerOf = (rel: string): string => rel.split('/')[0];

/** Broken rules in a set of sources keyed by path relative to src/. */
function violations(files: Map<string, string>): string[] {
  const bad: string[] = [];
  for (const [rel, source] of files) {
    const from = layerOf(rel);
    for (const spec of specifiers(source)) {
      if (!spec.startsWith('.')) {
        if (from === 'core' && HOST_PACKAGES.test(spec)) bad.push(`${rel} imports the host package ${spec}`);
        continue;
      }
      const target = relative(SRC, resolve(join(SRC, dirname(rel)), spec));
      const to = target.startsWith('..') ? '(outside src)' : layerOf(target);
      if (to === from) continue;
      if (from === 'core') bad.push(`${rel} (core) imports ${spec} (${to})`);
      else if (to !== 'core') bad.push(`${rel} (${from}) imports ${spec} (${to}): hosts import only src/core`);
    }
  }
  return bad;
}

function sources(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.(ts|tsx|mts)$/.test(e.name)) out.set(relative(SRC, p), readFileSync(p, 'utf8'));
  }
  return out;
}

describe('TypeScript layers', () => {
  it('the checker reads every kind of import and flags each broken rule', () => {
    expect(
      specifiers(
        [
          "import { a } from './a';",
          "import type { B } from '../lab/b';",
          "export { c } from './c';",
          "export * from './d';",
          "import './e.css';",
          "const f = await import('./f');",
          "import g, { h } from '@jupyterlab/apputils';",
        ].join('\n'),
      ),
    ).toEqual(['./a', '../lab/b', './c', './d', './e.css', './f', '@jupyterlab/apputils']);
    const planted = new Map([
      ['core/x.ts', "import type { P } from '../lab/panel/model';\nimport { W } from '@lumino/widgets';"],
      ['widget/index.ts', "import { render } from '../core/index';\nimport { r } from '../report/index';"],
      ['lab/panel/y.ts', "import { s } from '../../core/styles';\nimport { m } from './model';"],
    ]);
    expect(violations(planted)).toEqual([
      'core/x.ts (core) imports ../lab/panel/model (lab)',
      'core/x.ts imports the host package @lumino/widgets',
      'widget/index.ts (widget) imports ../report/index (report): hosts import only src/core',
    ]);
  });

  it('src/core imports no host, and each host imports only src/core and its own files', () => {
    const files = sources(SRC);
    const layers = new Set([...files.keys()].map(layerOf));
    expect([...layers].sort()).toEqual(['core', ...HOSTS].sort());
    expect(files.size).toBeGreaterThan(60);
    expect(violations(files)).toEqual([]);
  });
});
