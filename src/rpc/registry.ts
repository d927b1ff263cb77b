import type { Validator } from '../lib/codec/index.js';
import { compileValidator } from '../lib/codec/index.js';
import type { EndpointDefinition } from '../lib/endpoint/definition.js';
import { NO_PARAMS } from '../lib/endpoint/params.js';
import { unboundedParams } from './param_rules.js';

export type { EndpointContext, EndpointDefinition, EndpointHandler, Transport } from '../lib/endpoint/definition.js';

/** Klayr Core's method name rule: namespace (letters, digits, _) + '_' + method (letters, digits). */
export const METHOD_NAME = /^[a-zA-Z][a-zA-Z0-9_]*_[a-zA-Z][a-zA-Z0-9]*$/;

/**
 * Who serves an endpoint in Klayr Core: the engine's RPC server answers its own methods, and hands every other
 * (the modules', the plugins', unknown ones) to the application through the ABI, which answers an error as a
 * result `{ error: { message } }` (abi_handler.js query) rather than as a JSON-RPC error.
 */
export type EndpointOrigin = 'engine' | 'application';

export interface RegisteredEndpoint extends EndpointDefinition {
  readonly name: string;
  readonly origin: EndpointOrigin;
  readonly namespace: string;
  readonly method: string;
  /** The params check (strict: no unknown properties; a method without a schema takes none). */
  readonly validate: Validator;
}

/** The one map from `namespace_method` to handler the RPC front serves; it knows nothing of modules. */
export class EndpointRegistry {
  readonly #endpoints = new Map<string, RegisteredEndpoint>();

  register(name: string, definition: EndpointDefinition, origin: EndpointOrigin = 'engine'): void {
    if (!METHOD_NAME.test(name)) throw new Error(`Endpoint name "${name}" must be namespace_method`);
    if (this.#endpoints.has(name)) throw new Error(`Endpoint ${name} is already registered.`);
    const params = definition.params ?? NO_PARAMS;
    const unbounded = unboundedParams(params);
    if (unbounded.length > 0) throw new Error(`Endpoint ${name} params must be bounded: ${unbounded.join(', ')}`);
    const split = name.lastIndexOf('_');
    this.#endpoints.set(name, {
      ...definition,
      name,
      origin,
      namespace: name.slice(0, split),
      method: name.slice(split + 1),
      validate: compileValidator(params, { strict: true }),
    });
  }

  /** Registers `namespace_<key>` for every entry of an endpoint object. */
  registerNamespace(
    namespace: string,
    definitions: Record<string, EndpointDefinition>,
    origin: EndpointOrigin = 'engine',
  ): void {
    for (const [method, definition] of Object.entries(definitions))
      this.register(`${namespace}_${method}`, definition, origin);
  }

  get(name: string): RegisteredEndpoint | undefined {
    return this.#endpoints.get(name);
  }

  /** The names the application serves (see EndpointOrigin), in the order they were registered. */
  applicationNames(): string[] {
    return [...this.#endpoints.values()].filter((e) => e.origin === 'application').map((e) => e.name);
  }

  list(): RegisteredEndpoint[] {
    return [...this.#endpoints.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  namespaces(): string[] {
    return [...new Set(this.list().map((e) => e.namespace))];
  }
}
