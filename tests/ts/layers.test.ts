// @vitest-environment node
// (no DOM here: the node environment spares this file the set-up of jsdom)
// The TypeScript layers (docs/architecture.md): src/core is the one rendering core and imports no host; each host
// (src/lab, src/widget, src/vscode, src/report) imports only the core and its own files, never another host; the
// core uses no host's packages (JupyterLab, Lumino, anywidget, VS Code); no file of src/ is in an import cycle
// (type imports count: a cycle of types is still two concepts that cannot be read apart); docs/frontend.md's
// structure lists every file of src/core. Read from the sources' import lines.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** The file a relative specifier of `rel` names, relative to src/ (`./a` → `a.ts` or `a/index.ts`), or null. */
function resolved(rel: string, spec: string, files: Map<string, string>): string | null {
  const base = relative(SRC, resolve(join(SRC, dirname(rel)), spec)).replace(/\.js$/, '');
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) if (files.has(c)) return c;
  return null;
}

/** One import cycle among `files` (paths relative to src/) as `a.ts → b.ts → a.ts`, or null when there is none. */
function findCycle(files: Map<string, string>): string | null {
  const next = new Map<string, string[]>();
  for (const [rel, source] of files) {
    const to = specifiers(source).map((s) => (s.startsWith('.') ? resolved(rel, s, files) : null));
    next.set(
      rel,
      to.filter((f): f is string => f !== null),
    );
  }
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string): string | null => {
    state.set(f, 'open');
    path.push(f);
    for (const g of next.get(f) ?? []) {
      if (state.get(g) === 'open') return [...path.slice(path.indexOf(g)), g].join(' → ');
      if (!state.has(g)) {
        const found = visit(g);
        if (found) return found;
      }
    }
    path.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of [...files.keys()].sort()) {
    if (state.has(f)) continue;
    const found = visit(f);
    if (found) return found;
  }
  return null;
}

/** Every file `roots` import, directly or not (the roots included), of `files` (paths relative to src/). */
function reach(files: Map<string, string>, roots: string[]): Set<string> {
  const out = new Set<string>();
  const visit = (f: string): void => {
    if (out.has(f) || !files.has(f)) return;
    out.add(f);
    for (const s of specifiers(files.get(f)!)) if (s.startsWith('.')) visit(resolved(f, s, files) ?? '');
  };
  for (const r of roots) visit(r);
  return out;
}

/** The painters and the page of src/core: what builds or reads the DOM of a pane (issue 28: the model, the
 * painters and the page are separate layers; the pane's model, pane-model.ts and frame.ts, reaches none of these). */
const PAINT_AND_PAGE = [
  'svg-view',
  'nodes',
  'svg-edges',
  'svg-zoom-labels',
  'canvas-view',
  'canvas-draw',
  'canvas-svg',
  'overview',
  'graph-view',
  'pane-drawer',
  'pane-renderers',
  'pane-results',
  'minimap',
  'pan-zoom',
  'toolbar',
  'legend',
  'details',
  'render',
  'picture',
].map((n) => `core/${n}.ts`);

/** The files of src/core that docs/frontend.md's structure block does not give a line of their own
 * (`  name.ts  what it is`); a generated file that a build writes (ignored by git) need only be named. */
function undocumented(core: string[], doc: string): string[] {
  const start = doc.indexOf('```\nsrc/core/');
  const block = start < 0 ? '' : doc.slice(start, doc.indexOf('\n```', start + 3));
  const listed = new Set([...block.matchAll(/^ {2}([\w.-]+\.ts)(?: |$)/gm)].map((m) => m[1]));
  return core.filter((f) => !listed.has(f) && !(f.endsWith('.generated.ts') && doc.includes(f)));
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

  it('the cycle finder sees a cycle made by a type import, and none in a tree', () => {
    const cyclic = new Map([
      ['core/a.ts', "import { b } from './b';"],
      ['core/b.ts', "import type { C } from './c';"],
      ['core/c.ts', "export { a } from './a';"],
      ['core/d.ts', "import { a } from './a';"],
    ]);
    expect(findCycle(cyclic)).toBe('core/a.ts → core/b.ts → core/c.ts → core/a.ts');
    const tree = new Map([
      ['core/a.ts', "import { b } from './b';\nimport { c } from './c';"],
      ['core/b.ts', "import { c } from './c';"],
      ['core/c.ts', "import { x } from 'some-package';"],
      ['core/m/index.ts', "import { a } from '../a';"],
      ['core/n.ts', "import { m } from './m';"],
    ]);
    expect(findCycle(tree)).toBeNull();
    expect(findCycle(new Map([...tree, ['core/a.ts', "import { n } from './n';"]]))).toBe(
      'core/a.ts → core/n.ts → core/m/index.ts → core/a.ts',
    );
  });

  it('no file of src/ is in an import cycle', () => {
    expect(findCycle(sources(SRC))).toBeNull();
  });

  it('the docs check finds a core file docs/frontend.md does not list', () => {
    const doc =
      'src/core/ a.ts c.ts\n```\nsrc/core/   the core\n  a.ts       one\n  b.ts  two\n           more: c.ts\n```\n  c.ts';
    expect(undocumented(['a.ts', 'b.ts', 'c.ts', 'locales.generated.ts'], doc)).toEqual([
      'c.ts',
      'locales.generated.ts',
    ]);
  });

  it('the pane’s model (pane-model.ts, frame.ts and all they import) reaches no painter and no page file', () => {
    const planted = new Map([
      ['core/m.ts', "import { f } from './f';"],
      ['core/f.ts', "import type { P } from './p';"],
      ['core/p.ts', "import { m } from './m';"],
    ]);
    expect([...reach(planted, ['core/f.ts'])].sort()).toEqual(['core/f.ts', 'core/m.ts', 'core/p.ts']);
    const files = sources(SRC);
    for (const f of PAINT_AND_PAGE) expect(files.has(f), f).toBe(true);
    const model = reach(files, ['core/pane-model.ts', 'core/frame.ts']);
    for (const f of ['core/box-model.ts', 'core/edges.ts', 'core/hier-layout.ts', 'core/reps.ts'])
      expect(model.has(f), f).toBe(true);
    expect([...model].filter((f) => PAINT_AND_PAGE.includes(f))).toEqual([]);
  });

  it('docs/frontend.md lists every file of src/core', () => {
    const core = readdirSync(join(SRC, 'core')).filter((f) => /\.tsx?$/.test(f));
    expect(core.length).toBeGreaterThan(50);
    expect(existsSync(join(ROOT, 'docs/frontend.md'))).toBe(true);
    expect(undocumented(core, readFileSync(join(ROOT, 'docs/frontend.md'), 'utf8'))).toEqual([]);
  });

  it('src/core imports no host, and each host imports only src/core and its own files', () => {
    const files = sources(SRC);
    const layers = new Set([...files.keys()].map(layerOf));
    expect([...layers].sort()).toEqual(['core', ...HOSTS].sort());
    expect(files.size).toBeGreaterThan(60);
    expect(violations(files)).toEqual([]);
  });
});
