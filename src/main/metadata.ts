import type { StateModule } from '../engine/state_machine/module.js';
import type { ModuleMetadata } from '../engine/system/endpoint.js';
import type { EndpointRegistry } from '../rpc/registry.js';
import { authMetadata } from '../modules/auth/metadata.js';
import { dynamicRewardMetadata } from '../modules/dynamic_reward/metadata.js';
import { feeMetadata } from '../modules/fee/metadata.js';
import { interoperabilityMetadata } from '../modules/interoperability/metadata.js';
import { legacyMetadata } from '../modules/legacy/metadata.js';
import type { ModuleMetadataDeclaration } from '../modules/metadata.js';
import { posMetadata } from '../modules/pos/metadata.js';
import { randomMetadata } from '../modules/random/metadata.js';
import { tokenMetadata } from '../modules/token/metadata.js';
import { validatorsMetadata } from '../modules/validators/metadata.js';

/** Every module's metadata declaration, in Klayr Core's registration order. */
export const MODULE_METADATA: readonly ModuleMetadataDeclaration[] = [
  authMetadata,
  validatorsMetadata,
  tokenMetadata,
  feeMetadata,
  interoperabilityMetadata,
  posMetadata,
  randomMetadata,
  dynamicRewardMetadata,
  legacyMetadata,
];

/** Engine endpoints served under a module's namespace (Klayr's engine serves legacy_getLegacyBrackets). */
export const ENGINE_ENDPOINTS_IN_MODULE_NAMESPACES: readonly string[] = ['legacy_getLegacyBrackets'];

/**
 * system_getMetadata's modules: commands, events and assets from the module objects (what the
 * state machine runs), stores and endpoints from the modules' declarations, sorted by name as
 * Klayr's ABI handler sorts them. Every module has one declaration and every declaration a module.
 */
export const moduleMetadata = (modules: readonly StateModule[], declarations: readonly ModuleMetadataDeclaration[] = MODULE_METADATA): ModuleMetadata[] => {
  const undeclared = modules.filter((m) => !declarations.some((d) => d.name === m.name)).map((m) => m.name);
  if (undeclared.length > 0) throw new Error(`Modules without a metadata declaration: ${undeclared.join(', ')}`);
  const unregistered = declarations.filter((d) => !modules.some((m) => m.name === d.name)).map((d) => d.name);
  if (unregistered.length > 0) throw new Error(`Metadata declarations without a module: ${unregistered.join(', ')}`);
  return modules
    .map((module) => {
      const declaration = declarations.find((d) => d.name === module.name)!;
      return {
        commands: (module.commands ?? []).map((c) => ({ name: c.name, params: c.schema })),
        events: (module.events ?? []).map((e) => ({ name: e.name, data: e.data })),
        stores: declaration.stores.map((s) => ({ key: s.key, data: s.data })),
        endpoints: declaration.endpoints.map((e) => ({ ...e })),
        assets: (module.assets ?? []).map((a) => ({ version: a.version, data: a.data })),
        name: module.name,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
};

/**
 * Where the registry and the declarations disagree: a module endpoint served but not declared
 * (published or unpublished), or declared but not served. Empty when they agree.
 */
export const endpointMetadataMismatches = (registry: EndpointRegistry, declarations: readonly ModuleMetadataDeclaration[] = MODULE_METADATA): string[] => {
  const namespaces = new Set(declarations.map((d) => d.name));
  const served = registry
    .list()
    .filter((e) => namespaces.has(e.namespace) && !ENGINE_ENDPOINTS_IN_MODULE_NAMESPACES.includes(e.name))
    .map((e) => e.name);
  const declared = declarations.flatMap((d) => [...d.endpoints.map((e) => e.name), ...(d.unpublishedEndpoints ?? [])].map((method) => `${d.name}_${method}`));
  return [
    ...served.filter((name) => !declared.includes(name)).map((name) => `${name} is served but has no metadata entry`),
    ...declared.filter((name) => !served.includes(name)).map((name) => `${name} has a metadata entry but is not served`),
    ...declared.filter((name, i) => declared.indexOf(name) !== i).map((name) => `${name} is declared twice`),
  ];
};
