import type { StateModule } from '../engine/state_machine/module.js';
import type { ModuleMetadata } from '../engine/system/endpoint.js';
import type { EndpointRegistry } from '../rpc/registry.js';

/**
 * system_getMetadata's modules: each module's endpoints (from the registry, with their params
 * schemas), commands with params schemas, events with data schemas and assets, sorted by name
 * as Klayr Core lists them. Modules without hooks that serve endpoints (validators) are listed too.
 */
export const moduleMetadata = (modules: readonly StateModule[], registry: EndpointRegistry, extra: readonly string[] = ['validators']): ModuleMetadata[] => {
  const names = [...new Set([...modules.map((m) => m.name), ...extra])].sort();
  return names.map((name) => {
    const module = modules.find((m) => m.name === name);
    return {
      name,
      endpoints: registry
        .list()
        .filter((e) => e.namespace === name)
        .map((e) => ({ name: e.method, ...(e.params !== undefined ? { request: e.params } : {}) })),
      commands: (module?.commands ?? []).map((c) => ({ name: c.name, params: c.schema })),
      events: (module?.events ?? []).map((e) => ({ name: e.name, data: e.data })),
      assets: [...(module?.assets ?? [])],
      stores: [],
    };
  });
};
