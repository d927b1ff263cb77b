// Entry of the RPC front thread (front_thread.ts): the HTTP/WS server, with its own heap and event loop.

import { getPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { StateBase } from '../../engine/state/state_db.js';
import { readRange } from '../../engine/state/state_db.js';
import { moduleEndpoints } from '../../engine/state_machine/metadata.js';
import type { EndpointServices } from '../../engine/state_machine/module.js';
import { required } from '../../lib/required.js';
import { Dispatcher } from '../../rpc/dispatcher.js';
import { EventHub } from '../../rpc/events.js';
import { ForwardedMetrics } from '../../rpc/forwarded_metrics.js';
import { ForwardingHandler } from '../../rpc/forwarding_handler.js';
import type { RunningHttpWs } from '../../rpc/http_ws_options.js';
import { startHttpWs } from '../../rpc/http_ws_start.js';
import type { Transport } from '../../rpc/registry.js';
import { EndpointRegistry } from '../../rpc/registry.js';
import { applyCommitNews } from '../../storage/commit_feed.js';
import { getCommitted } from '../../storage/committed_reads.js';
import { closeDatabases, openDatabases } from '../../storage/database.js';
import { PendingMirror } from '../../storage/pending_mirror.js';
import { committedStateAccess } from '../endpoints.js';
import { applicationModules } from '../modules.js';
import { FRONT_THREAD_METHODS } from './local_methods.js';
import type { FromFront, FrontThreadData, ToFront } from './protocol.js';
import { applyThreadNice } from './thread_nice.js';

const data = workerData as FrontThreadData;
const port = required(parentPort, 'The parent port of the RPC front thread');
const post = (message: FromFront): void => port.postMessage(message);

/** A message that waits for an answer, without its id. */
type Question = FromFront extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;

const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextID = 0;
/** Asks the main thread; resolves with its answer. */
const ask = (message: Question): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const id = ++nextID;
    waiting.set(id, { resolve, reject });
    post({ ...message, id } as FromFront);
  });

const dbs = openDatabases(data.config.system.dataPath, { writer: false });
const mirror = new PendingMirror(dbs, ['state']);
const committed: StateBase = {
  get: (key) => getCommitted(dbs, dbs.state, key),
  iterate: (options) => readRange(dbs.state, options),
};

const unavailable = (what: string) => (): never => {
  throw new Error(`${what} is not available in the RPC front thread`);
};

/** The local methods' endpoints, built by their modules from the node's config, over this thread's reads of committed state. */
const localRegistry = (): EndpointRegistry => {
  const chainID = Buffer.from(data.config.genesis.chainID, 'hex');
  const services: EndpointServices = {
    chainID,
    state: committedStateAccess(committed),
    lastHeader: unavailable('The last block header'),
    offchain: dbs.generator,
    onions: {
      generate: unavailable('Hash onion generation'),
      stats: unavailable('Hash onion generation'),
      close: unavailable('Hash onion generation'),
    },
  };
  const registry = new EndpointRegistry();
  const wanted = new Set(FRONT_THREAD_METHODS);
  for (const module of applicationModules(data.config)) {
    if (!FRONT_THREAD_METHODS.some((name) => name.startsWith(`${module.name}_`))) continue;
    for (const [method, definition] of Object.entries(moduleEndpoints(module, services))) {
      const name = `${module.name}_${method}`;
      if (wanted.delete(name)) registry.register(name, definition, 'application');
    }
  }
  if (wanted.size > 0) throw new Error(`The RPC front thread has no endpoint for ${[...wanted].join(', ')}`);
  return registry;
};

/** Requests for the main thread waiting for the end of this turn of the event loop (setImmediate): one message for them all. */
let forwarding: { id: number; text: string; transport: Transport }[] = [];
const forward = (text: string, transport: Transport): Promise<string> =>
  new Promise((resolve, reject) => {
    const id = ++nextID;
    waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
    if (forwarding.length === 0)
      setImmediate(() => {
        const batch = forwarding;
        forwarding = [];
        post({ t: 'requests', batch });
      });
    forwarding.push({ id, text, transport });
  });

let running: RunningHttpWs | undefined;
const hub = new EventHub();

const start = async (): Promise<void> => {
  const niceRefused = applyThreadNice(data.config.rpc.threadNice);
  if (niceRefused !== undefined) post({ t: 'warn', message: niceRefused });
  const metrics =
    data.metricsContentType === undefined
      ? undefined
      : new ForwardedMetrics(
          data.metricsContentType,
          (records) => post({ t: 'records', records }),
          () => ask({ t: 'metrics' }) as Promise<string>,
          (delta) => post({ t: 'wsClients', delta }),
        );
  const logger = {
    debug: (fields: { method: string; err: unknown }) =>
      post({
        t: 'handlerFailed',
        method: fields.method,
        error: fields.err instanceof Error ? fields.err.message : String(fields.err),
      }),
  } as unknown as Pick<Logger, 'debug'>;
  const registry = localRegistry();
  const local = new Dispatcher({
    registry,
    allowedMethods: data.allowedMethods,
    version: data.version,
    logger,
    ...(metrics !== undefined ? { metrics } : {}),
  });
  const handler = new ForwardingHandler(local, (method) => registry.get(method) !== undefined, forward);
  running = await startHttpWs(
    {
      ...data.settings,
      dispatcher: handler,
      hub,
      health: () => ask({ t: 'health' }),
      ...(metrics !== undefined ? { metrics } : {}),
    },
    data.engine,
    (message) => post({ t: 'warn', message }),
  );
  post({ t: 'listening', port: running.port, kind: running.kind, nice: getPriority(0) });
};

let stopping: Promise<void> | undefined;
/** Closes the server (once its start is over, if it is still starting) and this thread's LMDB handles; the thread then ends. */
const close = (): Promise<void> => {
  stopping ??= (async () => {
    await starting.catch(() => undefined);
    await running?.close();
    running = undefined;
    await closeDatabases(dbs);
    port.close();
  })();
  return stopping;
};

/** The process is exiting: the server closes now (its close does its work before it first awaits), then the main thread goes on. */
const closeServerNow = (): void => {
  void running?.close();
  running = undefined;
  const closed = new Int32Array(data.serverClosed);
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
};

/** Settles what waits for answer `id`: with `outcome`, or rejected when it is an Error (a refusal). */
const settle = (id: number, outcome: unknown): void => {
  const entry = waiting.get(id);
  waiting.delete(id);
  if (outcome instanceof Error) entry?.reject(outcome);
  else entry?.resolve(outcome);
};

port.on('message', (message: ToFront) => {
  switch (message.t) {
    case 'news':
      applyCommitNews(dbs, mirror, message.news);
      return;
    case 'event':
      hub.publishText(message.name, message.text);
      return;
    case 'answers':
      for (const [id, text] of message.answers) settle(id, text);
      return;
    case 'value':
      settle(message.id, message.value);
      return;
    case 'refused':
      settle(message.id, new Error(message.message));
      return;
    case 'close':
      void close();
      return;
    case 'closeServerNow':
      closeServerNow();
      return;
  }
});

// A worker thread that ends on an uncaught error with its server open aborts the whole process (Node checks
// that a thread's event loop closes with no handle open, and uWebSockets.js's are): the thread closes its
// server and handles first and ends, and the main thread starts it again.
process.on('uncaughtException', (error) => {
  post({ t: 'crashed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  void close();
});

const starting = start();
starting.catch((error: unknown) => {
  const { name, message } = error instanceof Error ? error : new Error(String(error));
  post({ t: 'failed', error: { name, message } });
});
