import { setTimeout as sleep } from 'node:timers/promises';
import type { RPCClient } from '../../rpc/client.js';
import { connectWS, RPCCallError } from '../../rpc/client.js';
import type { ChainProcess } from './process.js';

/** The JSON-RPC WebSocket URL of a node serving on 127.0.0.1. */
export const rpcWsURL = (port: number): string => `ws://127.0.0.1:${port}/rpc-ws`;

/** The node does not serve that endpoint (its feature is not built or not enabled): Klayr's bus error. */
export const isMethodNotFound = (e: unknown): boolean =>
  e instanceof RPCCallError && e.code === undefined && / is not registered to bus\.$/.test(e.message);

export interface NodeInfo {
  chainID: string;
  height: number;
  finalizedHeight: number;
  lastBlockID: string;
}

/**
 * A WebSocket client of the chain's node once it answers system_getNodeInfo. Fails at once when
 * the node's process exits (naming the end of its log), and after `timeoutMs`.
 */
export const connectWhenReady = async (chain: ChainProcess, port: number, timeoutMs: number): Promise<RPCClient> => {
  let exit: string | undefined;
  void chain.exited.then(({ code, signal }) => (exit = signal ?? String(code)));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exit !== undefined)
      throw new Error(
        `The ${chain.name} stopped (exit ${exit}) before serving RPC. The end of its log (${chain.logFile}):\n${chain.logTail(15)}`,
      );
    if (Date.now() > deadline)
      throw new Error(
        `The ${chain.name} did not answer on ${rpcWsURL(port)} within ${timeoutMs / 1000} s (its log: ${chain.logFile})`,
      );
    try {
      const client = await connectWS(rpcWsURL(port));
      try {
        await client.invoke('system_getNodeInfo');
        return client;
      } catch (e) {
        await client.close();
        throw e;
      }
    } catch {
      await sleep(250);
    }
  }
};

export const nodeInfo = async (client: RPCClient): Promise<NodeInfo> =>
  (await client.invoke('system_getNodeInfo')) as NodeInfo;

/** Polls `check` every `intervalMs` until it holds (true) or `timeoutMs` has passed (false). */
export const pollUntil = async (
  check: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 500,
): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(intervalMs);
  }
};
