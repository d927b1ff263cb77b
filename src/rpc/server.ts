import type { Logger } from 'pino';
import { Dispatcher } from './dispatcher.js';
import { EventHub } from './events.js';
import type { HttpWsOptions, RunningHttpWs } from './http_ws_options.js';
import type { HttpWsEngine } from './http_ws_start.js';
import { startHttpWs } from './http_ws_start.js';
import type { RPCMetrics } from './metrics.js';
import type { EndpointRegistry } from './registry.js';
import type { RunningIPC } from './server_ipc.js';
import { startIPC } from './server_ipc.js';

/** The `rpc` section of the application config. */
export interface RPCConfig {
  modes: readonly ('ipc' | 'ws' | 'http')[];
  host: string;
  port: number;
  allowedMethods?: readonly string[];
  accessControlAllowOrigin?: string;
  /** Kestrel's addition: largest HTTP body / WS message in bytes (default 1 MiB). */
  maxBodySize?: number;
}

export interface RPCServerOptions {
  rpc: RPCConfig;
  dataPath: string;
  registry: EndpointRegistry;
  logger: Logger;
  metrics?: RPCMetrics;
  /** 'auto' uses uWebSockets.js and falls back to node:http + ws when its binary cannot load. */
  engine?: HttpWsEngine;
  health?: () => unknown;
  version?: string;
  /**
   * Starts the HTTP/WS server somewhere else than on this thread (the node's RPC front thread,
   * src/main/rpc_front): given the settings, the dispatcher and hub included, and the engine.
   */
  startHttpWs?: (settings: HttpWsOptions, engine: HttpWsEngine) => Promise<RunningHttpWs>;
}

export const DEFAULT_MAX_BODY_SIZE = 1024 * 1024;

/** The RPC front: the transports rpc.modes selects, one dispatcher and one event hub for all of them. */
export class RPCServer {
  readonly dispatcher: Dispatcher;
  readonly hub = new EventHub();
  #httpWs?: RunningHttpWs;
  #ipc?: RunningIPC;

  constructor(private readonly options: RPCServerOptions) {
    this.dispatcher = new Dispatcher({
      registry: options.registry,
      allowedMethods: options.rpc.allowedMethods ?? [],
      logger: options.logger,
      ...(options.version !== undefined ? { version: options.version } : {}),
      ...(options.metrics !== undefined ? { metrics: options.metrics } : {}),
    });
  }

  get port(): number | undefined {
    return this.#httpWs?.port;
  }

  get httpEngine(): 'uws' | 'node' | undefined {
    return this.#httpWs?.kind;
  }

  async start(): Promise<void> {
    const { rpc, logger } = this.options;
    const modes = new Set(rpc.modes);
    if (modes.has('http') || modes.has('ws')) {
      const settings = {
        host: rpc.host,
        port: rpc.port,
        http: modes.has('http'),
        ws: modes.has('ws'),
        dispatcher: this.dispatcher,
        hub: this.hub,
        maxBodySize: rpc.maxBodySize ?? DEFAULT_MAX_BODY_SIZE,
        bodyTimeoutMs: 10_000,
        maxBackpressure: 4 * 1024 * 1024,
        accessControlAllowOrigin: rpc.accessControlAllowOrigin ?? '*',
        health: this.options.health ?? (() => ({ status: 'ok' })),
        ...(this.options.metrics !== undefined ? { metrics: this.options.metrics } : {}),
      };
      const engine = this.options.engine ?? 'auto';
      this.#httpWs =
        this.options.startHttpWs !== undefined
          ? await this.options.startHttpWs(settings, engine)
          : await startHttpWs(settings, engine, (message) => logger.warn(message));
      logger.info(
        { host: rpc.host, port: this.#httpWs.port, engine: this.#httpWs.kind, http: settings.http, ws: settings.ws },
        'RPC HTTP/WS server listening',
      );
    }
    if (modes.has('ipc')) {
      this.#ipc = await startIPC({
        dataPath: this.options.dataPath,
        dispatcher: this.dispatcher,
        hub: this.hub,
        logger,
      });
      logger.info({ socket: this.#ipc.paths.rpc }, 'RPC IPC server listening');
    }
  }

  publish(name: string, data: unknown): void {
    this.hub.publish(name, data);
  }

  async stop(): Promise<void> {
    await this.#httpWs?.close();
    await this.#ipc?.close();
  }
}
