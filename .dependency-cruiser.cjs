/**
 * Imports run one way (DESIGN.md, Layout): each layer below names the layers of ours it may
 * import; `main` wires everything and is not listed. `rpc`, `network` and `plugins` may also
 * import the types the engine exports for them, and nothing of the engine at run time.
 *
 * TypeScript 7 has no compiler API for dependency-cruiser to read `.ts` with, so the check runs
 * over what tsc emits, where type-only imports are gone:
 *   npx tsc -p tsconfig.json && npx depcruise dist/src --config .dependency-cruiser.cjs
 * (`npm run check:imports`; tsc leaves the output of moved or deleted sources in dist, so run it
 * on a fresh dist, or let the test pick the compiled counterparts of today's sources). The paths below match `src/…` and `dist/src/…` alike, so the same
 * rules serve a TypeScript-aware run over `src` (which tells type-only imports apart, see
 * `dependencyTypesNot`). test/main/architecture.test.ts runs both in `npm test`: dependency-cruiser
 * over dist/src, and these same rules over the type and value imports of the `.ts` sources.
 */

const SRC = '^(dist/)?src/';

/** layer -> the layers of ours it may import at run time (itself included). */
const LAYERS = {
  lib: ['lib'],
  storage: ['lib', 'storage'],
  workers: ['lib', 'storage', 'workers'],
  engine: ['lib', 'storage', 'engine'],
  modules: ['lib', 'storage', 'engine', 'modules'],
  migration: ['lib', 'storage', 'engine', 'modules', 'migration'],
  rpc: ['lib', 'rpc'],
  network: ['lib', 'network'],
  plugins: ['lib', 'plugins'],
};

/** layer -> layers it may import types from, on top of LAYERS. */
const TYPE_ONLY = {
  rpc: ['engine'],
  network: ['engine'],
  plugins: ['engine'],
};

const otherThan = (allowed) => `${SRC}(?!(${allowed.join('|')})/)`;

const layerRules = Object.entries(LAYERS).flatMap(([layer, allowed]) => {
  const typeOnly = TYPE_ONLY[layer] ?? [];
  const others = allowed.filter((l) => l !== layer);
  return [
    {
      name: `${layer}-imports-only-${others.length > 0 ? others.join('-') : 'itself'}`,
      comment: `src/${layer} imports only ${allowed.map((l) => `src/${l}`).join(', ')}${typeOnly.length > 0 ? `, and types from ${typeOnly.map((l) => `src/${l}`).join(', ')}` : ''} (DESIGN.md, Layout).`,
      severity: 'error',
      from: { path: `${SRC}${layer}/` },
      // anything of ours outside the allowed layers (the type-only ones have their own rule)
      to: { path: otherThan([...allowed, ...typeOnly]) },
    },
    ...typeOnly.map((target) => ({
      name: `${layer}-imports-only-types-from-${target}`,
      comment: `src/${layer} may import the types src/${target} exports for it, nothing it runs (DESIGN.md, Layout).`,
      severity: 'error',
      from: { path: `${SRC}${layer}/` },
      to: { path: `${SRC}${target}/`, dependencyTypesNot: ['type-only'] },
    })),
  ];
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'No circular imports (DESIGN.md, Layout).',
      severity: 'error',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'no-dev-dependencies-in-src',
      comment: 'The Klayr SDK packages and the other devDependencies are test oracles and tools; what ships imports only dependencies.',
      severity: 'error',
      from: { path: SRC },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'no-unresolvable',
      comment: 'Every import resolves to a file or a package.',
      severity: 'error',
      from: { path: SRC },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.map$' },
    moduleSystems: ['es6', 'cjs'],
    tsPreCompilationDeps: false,
  },
};
