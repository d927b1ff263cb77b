import type { SchemaProperty } from '../codec/index.js';

/** How a call arrived (some endpoints answer only over IPC). */
export type Transport = 'http' | 'ws' | 'ipc';

export interface EndpointContext {
  readonly params: Record<string, unknown>;
  readonly transport: Transport;
}

export type EndpointHandler = (ctx: EndpointContext) => unknown;

/** One `namespace_method` of the RPC front, as the engine and the modules define it. */
export interface EndpointDefinition {
  readonly handler: EndpointHandler;
  /** JSON schema the params must satisfy before the handler runs. */
  readonly params?: SchemaProperty;
  /** JSON schema of the result (documentation, OpenRPC). */
  readonly result?: SchemaProperty;
  readonly description?: string;
  /**
   * The result is the same on every call for the node's lifetime (configuration, schemas): the
   * dispatcher serializes the first successful result and answers later calls with that text
   * without running the handler again (params are still validated).
   */
  readonly constant?: boolean;
}

/** A namespace's endpoints by method name. */
export type Endpoints = Record<string, EndpointDefinition>;
