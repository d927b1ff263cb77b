import type { Endpoints } from '../../lib/endpoint/definition.js';
import type { ModuleMetadata } from '../../lib/endpoint/metadata.js';
import { storeMetadata } from '../../lib/endpoint/metadata.js';
import { computeStorePrefix } from '../../lib/state/keys.js';
import type { EndpointServices, Module } from './module.js';

/** system_getMetadata's entry for a module, from its declarations, with the fields in Klayr's order. */
export const declaredMetadata = (module: Omit<Module, 'metadata'>): ModuleMetadata => {
  const storePrefix = module.storePrefix ?? computeStorePrefix(module.name);
  return {
    commands: (module.commands ?? []).map((c) => ({ name: c.name, params: c.schema })),
    events: (module.events ?? []).map((e) => ({ name: e.name, data: e.data })),
    stores: (module.stores ?? []).map((s) => storeMetadata(storePrefix, s.index, s.schema)),
    endpoints: (module.endpointDeclarations?.published ?? []).map((e) => ({ ...e })),
    assets: (module.assets ?? []).map((a) => ({ version: a.version, data: a.data })),
    name: module.name,
  };
};

/** Every module's metadata, sorted by name as Klayr's ABI handler sorts them. */
export const modulesMetadata = (modules: readonly Module[]): ModuleMetadata[] =>
  modules.map((m) => m.metadata()).sort((a, b) => a.name.localeCompare(b.name, 'en'));

/** Where a module's served endpoints and its declarations disagree; empty when they agree. */
export const endpointDeclarationMismatches = (module: Module, served: readonly string[]): string[] => {
  const declared = [
    ...(module.endpointDeclarations?.published ?? []).map((e) => e.name),
    ...(module.endpointDeclarations?.unpublished ?? []),
  ];
  const name = (method: string) => `${module.name}_${method}`;
  return [
    ...served.filter((m) => !declared.includes(m)).map((m) => `${name(m)} is served but has no metadata entry`),
    ...declared.filter((m) => !served.includes(m)).map((m) => `${name(m)} has a metadata entry but is not served`),
    ...declared.filter((m, i) => declared.indexOf(m) !== i).map((m) => `${name(m)} is declared twice`),
  ];
};

/** A module's endpoints, refused when they disagree with its declarations (so metadata cannot drift from what is served). */
export const moduleEndpoints = (module: Module, services: EndpointServices): Endpoints => {
  const endpoints = module.endpoints?.(services) ?? {};
  const mismatches = endpointDeclarationMismatches(module, Object.keys(endpoints));
  if (mismatches.length > 0) throw new Error(`Module ${module.name}: ${mismatches.join('; ')}`);
  return endpoints;
};
