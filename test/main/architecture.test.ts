import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * Imports run one way (DESIGN.md, Layout), by the rules in .dependency-cruiser.cjs:
 * dependency-cruiser over what tsc emitted for the current sources (run-time imports and
 * cycles), and the same layer rules over the `.ts` sources, where type-only imports show.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(import.meta.url);

interface PathRule {
  name: string;
  from: { path?: string };
  to: {
    path?: string;
    pathNot?: string;
    dependencyTypesNot?: string[];
    circular?: boolean;
    couldNotResolve?: boolean;
    dependencyTypes?: string[];
  };
}
const config = require(join(root, '.dependency-cruiser.cjs')) as { forbidden: PathRule[] };

/** Every `.ts` file under `dir`, as a path relative to the repository root. */
const tsFiles = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFiles(path);
    return e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });

const sources = tsFiles('src');

interface Violation {
  rule: string;
  from: string;
  to: string;
}
const listed = (violations: Violation[]): string => violations.map((v) => `${v.rule}: ${v.from} -> ${v.to}`).join('\n');

describe('architecture: imports run one way', () => {
  it('dependency-cruiser finds no forbidden import, cycle, devDependency or unresolvable import in the compiled sources', () => {
    // the compiled counterparts of today's sources only: dist keeps the output of files since moved
    const compiled = sources.map((s) => `dist/${s.replace(/\.ts$/, '.js')}`);
    const missing = compiled.filter((f) => !existsSync(join(root, f)));
    assert.deepEqual(missing, [], 'build first: npx tsc -p tsconfig.json');
    const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
    const run = spawnSync(
      process.execPath,
      [bin, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...compiled],
      { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    assert.ok(run.stdout.startsWith('{'), `dependency-cruiser did not run: ${run.stderr}`);
    const { summary } = JSON.parse(run.stdout) as {
      summary: {
        totalCruised: number;
        violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[];
      };
    };
    assert.ok(summary.totalCruised >= compiled.length, `cruised ${summary.totalCruised} of ${compiled.length} modules`);
    const violations = summary.violations.map((v) => ({
      rule: v.rule.name,
      from: v.from,
      to: v.cycle !== undefined ? v.cycle.map((c) => c.name).join(' -> ') : v.to,
    }));
    assert.equal(violations.length, 0, `\n${listed(violations)}`);
  });

  /** The relative imports of a `.ts` file, each with whether it imports types only. */
  const importsOf = (file: string): { to: string; typeOnly: boolean }[] => {
    const text = readFileSync(join(root, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const found: { specifier: string; typeOnly: boolean }[] = [];
    for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/gm)) {
      const clause = m[3] ?? '';
      const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
      const allNamedTypes =
        braces !== null &&
        braces[1]!
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
          .every((s) => s.startsWith('type '));
      found.push({ specifier: m[4]!, typeOnly: m[2] !== undefined || allNamedTypes });
    }
    for (const m of text.matchAll(/(typeof\s+)?import\(\s*['"]([^'"]+)['"]\s*\)/g))
      found.push({ specifier: m[2]!, typeOnly: m[1] !== undefined });
    return found
      .filter(({ specifier }) => specifier.startsWith('./') || specifier.startsWith('../'))
      .map(({ specifier, typeOnly }) => ({
        to: relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts'),
        typeOnly,
      }));
  };

  it('the TypeScript sources follow the same layer rules, type-only imports included', () => {
    const layerRules = config.forbidden.filter(
      (r) => r.from.path !== undefined && r.to.path !== undefined && r.to.circular === undefined,
    );
    assert.ok(layerRules.length >= 9, 'one rule per layer at least');
    const imports = sources.flatMap((from) => importsOf(from).map((i) => ({ from, ...i })));
    assert.ok(
      imports.some((i) => i.typeOnly) && imports.some((i) => !i.typeOnly),
      'the scan sees type and value imports',
    );
    const violations: Violation[] = [];
    for (const { from, to, typeOnly } of imports) {
      for (const rule of layerRules) {
        if (!new RegExp(rule.from.path!).test(from) || !new RegExp(rule.to.path!).test(to)) continue;
        if (rule.to.pathNot !== undefined && new RegExp(rule.to.pathNot).test(to)) continue;
        if (typeOnly && rule.to.dependencyTypesNot?.includes('type-only') === true) continue;
        violations.push({ rule: rule.name, from, to: typeOnly ? `${to} (types)` : to });
      }
    }
    assert.equal(violations.length, 0, `\n${listed(violations)}`);
  });

  it('the rules catch what DESIGN.md forbids', () => {
    const broken = (from: string, to: string, typeOnly: boolean): string[] =>
      config.forbidden
        .filter((r) => r.from.path !== undefined && r.to.path !== undefined)
        .filter((r) => new RegExp(r.from.path!).test(from) && new RegExp(r.to.path!).test(to))
        .filter((r) => r.to.pathNot === undefined || !new RegExp(r.to.pathNot).test(to))
        .filter((r) => !(typeOnly && r.to.dependencyTypesNot?.includes('type-only') === true))
        .map((r) => r.name);
    assert.notDeepEqual(broken('src/lib/codec/codec.ts', 'src/engine/genesis.ts', false), []);
    assert.notDeepEqual(broken('src/engine/chain/chain.ts', 'src/workers/verify_pool.ts', true), []);
    assert.notDeepEqual(broken('src/engine/chain/chain.ts', 'src/modules/token/index.ts', false), []);
    assert.notDeepEqual(broken('src/modules/token/index.ts', 'src/rpc/server.ts', false), []);
    assert.notDeepEqual(broken('src/rpc/server.ts', 'src/engine/txpool/pool.ts', false), []);
    assert.notDeepEqual(broken('dist/src/storage/tables.js', 'dist/src/engine/genesis.js', false), []);
    assert.deepEqual(broken('src/rpc/server.ts', 'src/engine/txpool/pool.ts', true), []);
    assert.deepEqual(broken('src/modules/token/index.ts', 'src/engine/state_machine/module.ts', false), []);
    assert.deepEqual(broken('src/migration/snapshot.ts', 'src/modules/token/index.ts', false), []);
    assert.deepEqual(broken('src/main/node.ts', 'src/workers/verify_pool.ts', false), []);
  });
});
