import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { applyMetricRecords } from '../../rpc/forwarded_metrics.js';
import type { HttpWsOptions, RunningHttpWs } from '../../rpc/http_ws_options.js';
import type { HttpWsEngine } from '../../rpc/http_ws_start.js';
import { PortInUseError } from '../../rpc/listen_guard.js';
import type { RPCMetrics } from '../../rpc/metrics.js';
import type { CommitNews } from '../../storage/commit_feed.js';
import { feedCommits } from '../../storage/commit_feed.js';
import type { KestrelDatabases } from '../../storage/database.js';
import type { ApplicationConfig } from '../config/types.js';
import type { FromFront, FrontThreadData, ToFront } from './protocol.js';

export interface FrontThreadOptions {
  config: ApplicationConfig;
  /** The node's environment (the writer): its commits are handed to the thread's reads. */
  dbs: KestrelDatabases;
  metrics?: RPCMetrics;
  allowedMethods: readonly string[];
  version: string;
  logger: Logger;
}

/** Whether the node serves HTTP and WS from the RPC front thread: yes unless KESTREL_RPC_THREAD=off (A/B measurements). */
export const rpcFrontThread = (): boolean => process.env.KESTREL_RPC_THREAD !== 'off';

/** How long a stopping thread may take to close its server and its handles before it is terminated. */
const CLOSE_TIMEOUT_MS = 5000;
/** How long an exiting process waits for the thread to close its server (a thread ended with it open aborts the process). */
const EXIT_CLOSE_TIMEOUT_MS = 2000;
/** A thread that ends unexpectedly is started again, at most this many times in RESTART_WINDOW_MS; then HTTP and WS stay down. */
export const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;

/**
 * RPCServer's startHttpWs for a node: the HTTP/WS server runs in a thread of its own (thread.ts), so
 * that requests are read and answered while this thread executes blocks and collects its garbage.
 * The thread answers FRONT_THREAD_METHODS from its own handles on LMDB, seeing each commit of this
 * thread (write-behind sets included) before the events that announce it; it hands every other
 * request, GET /health and GET /metrics to this thread's dispatcher, health and metrics, and this
 * thread hands it every event.
 */
export const frontThreadStarter =
  (o: FrontThreadOptions) =>
  (settings: HttpWsOptions, engine: HttpWsEngine): Promise<RunningHttpWs> =>
    new FrontThread(o, settings, engine).start();

/** The RPC front thread of one server: started, restarted after an unexpected end, closed. */
export class FrontThread {
  readonly #o: FrontThreadOptions;
  readonly #settings: HttpWsOptions;
  readonly #data: Omit<FrontThreadData, 'serverClosed'>;
  #worker: Worker | undefined;
  #alive = false;
  #closing: Promise<void> | undefined;
  #restarts: number[] = [];

  constructor(o: FrontThreadOptions, settings: HttpWsOptions, engine: HttpWsEngine) {
    this.#o = o;
    this.#settings = settings;
    this.#data = {
      config: o.config,
      settings: {
        host: settings.host,
        port: settings.port,
        http: settings.http,
        ws: settings.ws,
        maxBodySize: settings.maxBodySize,
        bodyTimeoutMs: settings.bodyTimeoutMs,
        maxBackpressure: settings.maxBackpressure,
        accessControlAllowOrigin: settings.accessControlAllowOrigin,
      },
      engine,
      allowedMethods: o.allowedMethods,
      version: o.version,
      metricsContentType: settings.metrics?.contentType,
    };
  }

  /** The running thread. */
  get worker(): Worker | undefined {
    return this.#alive ? this.#worker : undefined;
  }

  async start(): Promise<RunningHttpWs> {
    const { port, kind } = await this.#spawn(this.#settings.port);
    return { port, kind, close: () => this.close() };
  }

  /** Ends the thread: it closes its server and its LMDB handles (terminated after CLOSE_TIMEOUT_MS). */
  close(): Promise<void> {
    this.#closing ??= new Promise<void>((done) => {
      const worker = this.#worker;
      if (worker === undefined || !this.#alive) {
        done();
        return;
      }
      // the last resort: terminating a thread whose server is still open aborts the process
      const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
      worker.once('exit', () => {
        clearTimeout(timer);
        done();
      });
      worker.postMessage({ t: 'close' } satisfies ToFront);
    });
    return this.#closing;
  }

  /** A thread listening on `port`; resolves once it listens (with the port it got), rejects if it cannot. */
  #spawn(port: number): Promise<{ port: number; kind: 'uws' | 'node' }> {
    const settings = this.#settings;
    const o = this.#o;
    const serverClosed = new SharedArrayBuffer(4);
    const worker = new Worker(new URL('./thread.js', import.meta.url), {
      workerData: { ...this.#data, settings: { ...this.#data.settings, port }, serverClosed } satisfies FrontThreadData,
    });
    this.#worker = worker;
    this.#alive = true;
    // a process that exits with the thread's uWebSockets.js server open aborts (Node finds the thread's
    // loop with handles open when it ends the thread): whatever makes it exit (process.exit, an uncaught
    // error), the thread closes its server first, while this thread waits
    const closeOnExit = (): void => {
      if (this.#worker !== worker || !this.#alive) return;
      worker.postMessage({ t: 'closeServerNow' } satisfies ToFront);
      Atomics.wait(new Int32Array(serverClosed), 0, 0, EXIT_CLOSE_TIMEOUT_MS);
    };
    process.on('exit', closeOnExit);
    const post = (message: ToFront, transfer: ArrayBuffer[] = []): void => worker.postMessage(message, transfer);
    // from now on: messages wait on the port until the thread listens, so it misses no commit and no event
    const stopFeed = feedCommits(o.dbs, ['state'], (news: CommitNews) =>
      post({ t: 'news', news }, news.kind === 'set' ? [news.packed.buffer as ArrayBuffer] : []),
    );
    const removeSink = settings.hub.addSink((name, text) => post({ t: 'event', name, text }));
    const detach = (): void => {
      stopFeed();
      removeSink();
    };
    const answer = (id: number, out: unknown): void => {
      void Promise.resolve(out).then(
        (value) => post({ t: 'value', id, value }),
        (error: unknown) => post({ t: 'refused', id, message: error instanceof Error ? error.message : String(error) }),
      );
    };

    return new Promise((resolve, reject) => {
      let listening: number | undefined;
      worker.on('message', (message: FromFront) => {
        switch (message.t) {
          case 'requests': {
            const answers: [number, string][] = [];
            for (const { id, text, transport } of message.batch) {
              const out = settings.dispatcher.handle(text, transport);
              if (typeof out === 'string') answers.push([id, out]);
              else answer(id, out);
            }
            if (answers.length > 0) post({ t: 'answers', answers });
            return;
          }
          case 'health':
            // a health check that throws is answered as one that rejects
            answer(
              message.id,
              Promise.resolve().then(() => settings.health()),
            );
            return;
          case 'metrics':
            answer(message.id, settings.metrics?.text() ?? Promise.reject(new Error('The node serves no metrics')));
            return;
          case 'records':
            if (o.metrics !== undefined) applyMetricRecords(o.metrics, message.records);
            return;
          case 'wsClients':
            if (message.delta > 0) settings.metrics?.wsClients.inc();
            else settings.metrics?.wsClients.dec();
            return;
          case 'handlerFailed':
            o.logger.debug({ method: message.method, err: message.error }, 'RPC handler failed');
            return;
          case 'warn':
            o.logger.warn(message.message);
            return;
          case 'crashed':
            o.logger.error({ err: message.message }, 'The RPC front thread failed: it closes');
            return;
          case 'listening':
            if (o.config.rpc.threadNice !== undefined)
              o.logger.info(
                { nice: message.nice },
                'The HTTP and WS thread runs at its own nice value (rpc.threadNice)',
              );
            listening = message.port;
            resolve({ port: message.port, kind: message.kind });
            return;
          case 'failed':
            detach();
            void worker.terminate();
            reject(
              message.error.name === 'PortInUseError'
                ? new PortInUseError(settings.host, port)
                : new Error(message.error.message),
            );
            return;
        }
      });
      worker.on('error', (error) => {
        if (listening === undefined) reject(error);
        else o.logger.error({ err: error }, 'The RPC front thread failed');
      });
      worker.on('exit', (code) => {
        process.off('exit', closeOnExit);
        if (this.#worker === worker) this.#alive = false;
        detach();
        if (listening === undefined) reject(new Error(`The RPC front thread exited (code ${code}) before it listened`));
        else if (this.#closing === undefined) this.#restart(code, listening);
      });
    });
  }

  /** After an unexpected end: the thread again on the same port, unless it ended too often lately. */
  #restart(code: number, port: number): void {
    const { logger } = this.#o;
    if (this.#closing !== undefined) return;
    const now = Date.now();
    this.#restarts = this.#restarts.filter((at) => now - at < RESTART_WINDOW_MS);
    if (this.#restarts.length >= MAX_RESTARTS) {
      logger.error(
        { code, restarts: this.#restarts.length },
        `The RPC front thread stopped (code ${code}) ${MAX_RESTARTS} times within a minute: HTTP and WS are not served`,
      );
      return;
    }
    this.#restarts.push(now);
    logger.error({ code }, `The RPC front thread stopped (code ${code}): starting it again`);
    this.#spawn(port).then(
      () => logger.info({ port }, 'RPC front thread started again'),
      (err: unknown) => logger.error({ err }, 'The RPC front thread could not start again: HTTP and WS are not served'),
    );
  }
}
