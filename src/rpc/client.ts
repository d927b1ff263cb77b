import { existsSync } from 'node:fs';
import { WebSocket } from 'ws';
import { Dealer } from 'zeromq';
import { ipcSocketPaths } from './ipc_paths.js';

/** A JSON-RPC client of a running node (used by the CLI). */
export interface InvokeOptions {
  /** How long to wait for the answer (default 30 s). */
  timeoutMs?: number;
}

export interface RPCClient {
  invoke(method: string, params?: Record<string, unknown>, options?: InvokeOptions): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * A call that failed: a JSON-RPC error (its code), or, for a method the engine does not serve (a module's, a
 * plugin's, an unknown one), the application's error answered as the result `{ error: { message } }` as Klayr Core
 * answers it (code `undefined`).
 */
export class RPCCallError extends Error {
  override readonly name = 'RPCCallError';
  constructor(
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** The message of an application's error answered as a result, if the result is one. */
const applicationErrorOf = (result: unknown): string | undefined => {
  if (typeof result !== 'object' || result === null || Object.keys(result).length !== 1) return undefined;
  const { error } = result as { error?: unknown };
  if (typeof error !== 'object' || error === null) return undefined;
  const { message } = error as { message?: unknown };
  return typeof message === 'string' ? message : undefined;
};

const CONNECT_TIMEOUT_MS = 5000;
const RESPONSE_TIMEOUT_MS = 30_000;

type Pending = Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>;

const settle = (pending: Pending, text: string): void => {
  const response = JSON.parse(text) as { id?: number; result?: unknown; error?: { code: number; message: string } };
  const { id } = response;
  const entry = typeof id === 'number' ? pending.get(id) : undefined;
  if (id === undefined || entry === undefined) return;
  clearTimeout(entry.timer);
  pending.delete(id);
  if (response.error !== undefined) {
    entry.reject(new RPCCallError(response.error.code, response.error.message));
    return;
  }
  const applicationError = applicationErrorOf(response.result);
  if (applicationError !== undefined) entry.reject(new RPCCallError(undefined, applicationError));
  else entry.resolve(response.result);
};

const track = (pending: Pending, id: number, method: string, options: InvokeOptions): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const timeout = options.timeoutMs ?? RESPONSE_TIMEOUT_MS;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`No response to ${method} within ${timeout / 1000} s`));
    }, timeout);
    pending.set(id, { resolve, reject, timer });
  });

/** Connects over IPC to the node whose data path is given (the sockets under <dataPath>/tmp/sockets). */
export const connectIPC = async (dataPath: string): Promise<RPCClient> => {
  const { rpc } = ipcSocketPaths(dataPath);
  const notRunning = `Could not connect to the node over IPC at ${rpc.slice('ipc://'.length)}: is it running, with "ipc" in rpc.modes?`;
  if (!existsSync(rpc.slice('ipc://'.length))) throw new Error(notRunning);
  const dealer = new Dealer();
  const connected = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(notRunning)), CONNECT_TIMEOUT_MS);
    dealer.events.on('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  dealer.connect(rpc);
  try {
    await connected;
  } catch (e) {
    dealer.close();
    throw e;
  }
  const pending: Pending = new Map();
  void (async () => {
    for await (const [frame] of dealer) if (frame !== undefined) settle(pending, frame.toString('utf8'));
  })().catch(() => undefined);
  let nextID = 1;
  return {
    invoke: async (method, params = {}, options = {}) => {
      const id = nextID++;
      const answer = track(pending, id, method, options);
      await dealer.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      return answer;
    },
    close: async () => dealer.close(),
  };
};

/** Connects over WebSocket, e.g. ws://127.0.0.1:7887/rpc-ws. */
export const connectWS = async (url: string): Promise<RPCClient> => {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`Could not connect to the node at ${url} within ${CONNECT_TIMEOUT_MS / 1000} s`));
    }, CONNECT_TIMEOUT_MS);
    ws.once('open', () => {
      clearTimeout(timer);
      resolve();
    });
    ws.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`Could not connect to the node at ${url}: ${e.message}`));
    });
  });
  const pending: Pending = new Map();
  ws.on('message', (data) => settle(pending, data.toString()));
  let nextID = 1;
  return {
    invoke: (method, params = {}, options = {}) => {
      const id = nextID++;
      const answer = track(pending, id, method, options);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      return answer;
    },
    close: async () => ws.close(),
  };
};
