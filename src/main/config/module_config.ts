import { compileValidator } from '../../lib/codec/index.js';
import { MODULE_CONFIG_SCHEMAS } from '../modules.js';

const validators = Object.fromEntries(Object.entries(MODULE_CONFIG_SCHEMAS).map(([name, schema]) => [name, compileValidator(schema)]));

/** Every problem of the `modules` settings against the modules' own config schemas, with its JSON path. */
export const moduleConfigProblems = (modules: Record<string, unknown>): string[] =>
  Object.entries(modules).flatMap(([name, settings]) => {
    const validate = validators[name];
    return validate === undefined ? [] : validate(settings).map((i) => `config.modules.${name}${i.dataPath}: ${i.message}`);
  });
