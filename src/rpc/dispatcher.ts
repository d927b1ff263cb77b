import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { createAccessCheck } from './access.js';
import {
  APPLICATION_EMPTY_RESULT,
  applicationError,
  klayrValidationMessage,
  notRegisteredMessage,
} from './application_answers.js';
import type { RequestID } from './jsonrpc.js';
import {
  invalidRequest,
  MSG_DISABLED,
  MSG_EMPTY_BATCH,
  MSG_EMPTY_REQUEST,
  MSG_INVALID_FORMAT,
  MSG_PARSE_FAILED,
  success,
  successWithJSON,
} from './jsonrpc.js';
import type { RequestMetrics, SuccessRecorder } from './metrics.js';
import { OPENRPC_METHOD, openRPCDocument } from './openrpc.js';
import type { EndpointRegistry, RegisteredEndpoint, Transport } from './registry.js';
import { METHOD_NAME } from './registry.js';
import type { RequestHandler } from './request_handler.js';

export interface DispatcherOptions {
  registry: EndpointRegistry;
  allowedMethods?: readonly string[];
  metrics?: RequestMetrics;
  logger?: Pick<Logger, 'debug'>;
  /** Most requests one batch may hold. */
  maxBatchSize?: number;
  /** Version reported by rpc.discover. */
  version?: string;
}

interface Route {
  readonly endpoint: RegisteredEndpoint;
  /** Bound when the route first succeeds over a transport. */
  readonly recorders: Partial<Record<Transport, SuccessRecorder>>;
  /** A constant endpoint's result as JSON, once it has succeeded. */
  resultJSON?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const validID = (id: unknown): id is RequestID =>
  id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

/** Klayr's request schema: jsonrpc "2.0", string method, id number|string|null, optional object params, nothing else. */
const wellFormed = (
  r: unknown,
): r is { jsonrpc: '2.0'; method: string; id: RequestID; params?: Record<string, unknown> } => {
  if (!isObject(r) || r.jsonrpc !== '2.0' || typeof r.method !== 'string' || !('id' in r) || !validID(r.id))
    return false;
  if (r.params !== undefined && !isObject(r.params)) return false;
  // jsonrpc, method and id are there: any key beyond them and params is one too many
  // (an inherited enumerable key, from a polluted prototype, can only make the count fail)
  let keys = 0;
  for (const _ in r) keys += 1;
  return keys === (r.params === undefined ? 3 : 4);
};

/**
 * A request whose only fault is params that are not an object (an array, a string, null): its id
 * is known, so it is answered under it (Klayr Core answers every malformed request with id null).
 */
/** The name without its control characters (U+0000 to U+001F and U+007F), to quote it in an error message. */
const withoutControlCharacters = (name: string): string => [...name].filter((c) => c >= ' ' && c !== '\x7f').join('');

const paramsOnlyFault = (r: unknown): r is { id: RequestID } =>
  isObject(r) && 'params' in r && wellFormed({ ...r, params: {} });

/** An endpoint's error in the form Klayr Core gives it: the engine's a JSON-RPC error, the application's a result. */
const errorAnswer = (id: RequestID, endpoint: RegisteredEndpoint, message: string): string =>
  endpoint.origin === 'application' ? success(id, applicationError(message)) : invalidRequest(id, message);

/** Turns a raw request body (one request or a batch) into the response text, answering like Klayr Core. */
export class Dispatcher implements RequestHandler {
  readonly #registry: EndpointRegistry;
  readonly #allowed: (namespace: string, method: string) => boolean;
  readonly #metrics?: RequestMetrics;
  readonly #logger?: Pick<Logger, 'debug'>;
  readonly #maxBatch: number;
  readonly #version: string;
  /** name -> endpoint for names already seen valid, allowed and registered (a registered endpoint never changes). */
  readonly #routes = new Map<string, Route>();

  constructor(options: DispatcherOptions) {
    this.#registry = options.registry;
    this.#allowed = createAccessCheck(options.allowedMethods);
    if (options.metrics !== undefined) this.#metrics = options.metrics;
    if (options.logger !== undefined) this.#logger = options.logger;
    this.#maxBatch = options.maxBatchSize ?? 100;
    this.#version = options.version ?? '0.0.0';
  }

  isAllowed(name: string): boolean {
    const split = name.lastIndexOf('_');
    return split > 0 && this.#allowed(name.slice(0, split), name.slice(split + 1));
  }

  /** Answers synchronously when every handler involved is synchronous (no promise hop on the hot path). */
  handle(raw: string, transport: Transport): string | Promise<string> {
    if (raw.length === 0) return invalidRequest(null, MSG_EMPTY_REQUEST);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return invalidRequest(null, MSG_PARSE_FAILED);
    }
    return this.handleValue(parsed, transport);
  }

  /** A parsed body: one request or a batch (an array, answered with an array). */
  handleValue(parsed: unknown, transport: Transport): string | Promise<string> {
    if (!Array.isArray(parsed)) return this.handleParsed(parsed, transport);
    if (parsed.length === 0) return invalidRequest(null, MSG_EMPTY_BATCH);
    if (parsed.length > this.#maxBatch)
      return invalidRequest(null, `Invalid RPC request. A batch holds at most ${this.#maxBatch} requests.`);
    const responses = parsed.map((r) => this.handleParsed(r, transport));
    if (responses.every((r) => typeof r === 'string')) return `[${responses.join(',')}]`;
    return Promise.all(responses).then((all) => `[${all.join(',')}]`);
  }

  handleParsed(request: unknown, transport: Transport): string | Promise<string> {
    if (!wellFormed(request)) return invalidRequest(paramsOnlyFault(request) ? request.id : null, MSG_INVALID_FORMAT);
    const { id, method: name } = request;
    let route = this.#routes.get(name);
    if (route === undefined) {
      if (name === OPENRPC_METHOD)
        return success(
          id,
          openRPCDocument(this.#registry, this.#version, (n) => this.isAllowed(n)),
        );
      if (!METHOD_NAME.test(name)) {
        return invalidRequest(
          id,
          `Request name "${withoutControlCharacters(name)}" must be a valid name with module name and action name.`,
        );
      }
      if (!this.isAllowed(name)) return this.#count(name, transport, 'disabled', invalidRequest(id, MSG_DISABLED));
      const registered = this.#registry.get(name);
      // Klayr's engine hands a name it does not serve to the application, whose bus answers this
      if (registered === undefined)
        return this.#count(name, transport, 'not_found', success(id, applicationError(notRegisteredMessage(name))));
      route = { endpoint: registered, recorders: {} };
      this.#routes.set(name, route);
    }
    const { endpoint } = route;
    const params = request.params ?? {};
    const issues = endpoint.validate(params);
    if (issues.length > 0) {
      const message =
        endpoint.origin === 'application'
          ? klayrValidationMessage(issues)
          : issues.map((i) => `Property '${i.dataPath === '' ? '.' : i.dataPath}' ${i.message}`).join(', ');
      return this.#count(name, transport, 'invalid_params', errorAnswer(id, endpoint, message));
    }
    if (route.resultJSON !== undefined) {
      // the handler did not run: no time spent on it
      if (this.#metrics !== undefined) this.#recorder(this.#metrics, route, transport)(0);
      return successWithJSON(id, route.resultJSON);
    }
    const started = this.#metrics !== undefined ? performance.now() : undefined;
    let result: unknown;
    try {
      result = endpoint.handler({ params, transport });
    } catch (e) {
      return this.#failed(id, endpoint, transport, e, started);
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => this.#succeeded(id, route, transport, value, started),
        (e: unknown) => this.#failed(id, endpoint, transport, e, started),
      );
    }
    return this.#succeeded(id, route, transport, result, started);
  }

  #failed(
    id: RequestID,
    endpoint: RegisteredEndpoint,
    transport: Transport,
    e: unknown,
    started: number | undefined,
  ): string {
    this.#logger?.debug({ method: endpoint.name, err: e }, 'RPC handler failed');
    const message = e instanceof Error ? e.message : String(e);
    return this.#count(endpoint.name, transport, 'error', errorAnswer(id, endpoint, message), started);
  }

  /** A result JSON cannot represent (a bigint, a cycle) is the handler's error, never a crash. */
  #succeeded(id: RequestID, route: Route, transport: Transport, result: unknown, started: number | undefined): string {
    let resultJSON: string;
    try {
      resultJSON = JSON.stringify(result ?? (route.endpoint.origin === 'application' ? APPLICATION_EMPTY_RESULT : {}));
    } catch (e) {
      return this.#failed(
        id,
        route.endpoint,
        transport,
        new Error(
          `Endpoint ${route.endpoint.name} returned a result that cannot be serialized: ${(e as Error).message}`,
        ),
        started,
      );
    }
    if (route.endpoint.constant === true) route.resultJSON = resultJSON;
    if (this.#metrics !== undefined && started !== undefined)
      this.#recorder(this.#metrics, route, transport)((performance.now() - started) / 1000);
    return successWithJSON(id, resultJSON);
  }

  #recorder(metrics: RequestMetrics, route: Route, transport: Transport): SuccessRecorder {
    let recorder = route.recorders[transport];
    if (recorder === undefined) {
      recorder = metrics.successRecorder(route.endpoint.name, transport);
      route.recorders[transport] = recorder;
    }
    return recorder;
  }

  #count(method: string, transport: Transport, outcome: string, response: string, started?: number): string {
    if (this.#metrics !== undefined) {
      const known = this.#registry.get(method) !== undefined ? method : 'unknown';
      this.#metrics.countRequest(known, transport, outcome);
      if (started !== undefined) this.#metrics.observeDuration(known, (performance.now() - started) / 1000);
    }
    return response;
  }
}
