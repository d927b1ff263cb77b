import { declaredMetadata } from '../../engine/state_machine/metadata.js';
import type { EndpointServices, Module } from '../../engine/state_machine/module.js';
import { VALIDATORS_ENDPOINTS, validatorsEndpoints } from './endpoint.js';
import { blsKeyRegDataSchema, generatorKeyRegDataSchema } from './schemas.js';
import { MODULE_NAME, VALIDATORS_STORE_DECLARATIONS } from './stores.js';

/**
 * Klayr registers the validators module (no hooks: other modules call its methods). Listing it
 * makes it a registered module, as in Klayr, for the block asset checks (an asset for it is
 * accepted and ignored, as Klayr does).
 */
export class ValidatorsModule implements Module {
  readonly name = MODULE_NAME;
  readonly stores = VALIDATORS_STORE_DECLARATIONS;
  /** The events its methods log (method.ts). */
  readonly events = [
    { name: 'generatorKeyRegistration', data: generatorKeyRegDataSchema },
    { name: 'blsKeyRegistration', data: blsKeyRegDataSchema },
  ];
  readonly endpointDeclarations = VALIDATORS_ENDPOINTS;

  endpoints({ state }: EndpointServices) {
    return validatorsEndpoints(state);
  }

  metadata() {
    return declaredMetadata(this);
  }
}
