import type { EndpointDefinition } from '../../lib/endpoint/definition.js';

/** Klayr Core serves the config's legacy chain brackets from the engine, under the legacy namespace. */
export const legacyEngineEndpoints = (brackets: readonly unknown[]): Record<string, EndpointDefinition> => ({
  getLegacyBrackets: { description: 'The legacy chain brackets of the config.', handler: () => brackets },
});
