import { compileValidator } from '../../lib/codec/index.js';
import { posWindowProblems } from '../../modules/pos/config.js';
import { MODULE_CONFIG_SCHEMAS } from '../modules.js';

const validators = Object.fromEntries(
  Object.entries(MODULE_CONFIG_SCHEMAS).map(([name, schema]) => [name, compileValidator(schema)]),
);

/** Every problem of the `modules` settings against the modules' own config schemas (and the bounds Klayr derives from the block time), with its JSON path. */
export const moduleConfigProblems = (modules: Record<string, unknown>, blockTime: number): string[] => {
  const problems = Object.entries(modules).flatMap(([name, settings]) => {
    const validate = validators[name];
    return validate === undefined
      ? []
      : validate(settings).map((i) => `config.modules.${name}${i.dataPath}: ${i.message}`);
  });
  if (problems.length > 0) return problems;
  return posWindowProblems((modules.pos ?? {}) as Record<string, unknown>, blockTime).map(
    (p) => `config.modules.pos${p}`,
  );
};
