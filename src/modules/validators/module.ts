import type { StateModule } from '../../engine/state_machine/module.js';
import { blsKeyRegDataSchema, generatorKeyRegDataSchema } from './schemas.js';
import { MODULE_NAME } from './stores.js';

/**
 * Klayr registers the validators module (no hooks: other modules call its methods). Listing it
 * makes it a registered module, as in Klayr, for the block asset checks (an asset for it is
 * accepted and ignored, as Klayr does).
 */
export class ValidatorsModule implements StateModule {
  readonly name = MODULE_NAME;
  /** The events its methods log (method.ts). */
  readonly events = [
    { name: 'generatorKeyRegistration', data: generatorKeyRegDataSchema },
    { name: 'blsKeyRegistration', data: blsKeyRegDataSchema },
  ];
}
