import { setTimeout as sleep } from 'node:timers/promises';
import type { RPCClient } from '../../rpc/client.js';
import { nodeInfo } from '../child_nodes/rpc.js';
import type { NodeStatus } from './status.js';
import { finalityLine, statusLine } from './status.js';

export interface MonitorOptions {
  /** One client per node, node 0 first. */
  clients: readonly RPCClient[];
  /** When the nodes were started (Date.now()), which the finality line counts from. */
  startedAt: number;
  /** Node 0's finalized height when the network came up: finality advances past it. */
  finalizedAtStart: number;
  statusIntervalMs: number;
  /** How often node 0's finalized height is read. */
  pollIntervalMs: number;
  progress: (line: string) => void;
  /** Ends the monitor. */
  signal: AbortSignal;
}

const statusOf = async (client: RPCClient): Promise<NodeStatus> => {
  try {
    return await nodeInfo(client);
  } catch {
    return undefined;
  }
};

/**
 * Reports, until aborted: a status line of every node every `statusIntervalMs`, and once, the
 * moment node 0's finalized height first passes where it was when the network came up.
 */
export const monitorNetwork = async (options: MonitorOptions): Promise<void> => {
  const { clients, progress, signal } = options;
  let finalityReported = false;
  let lastStatus = Date.now();
  try {
    for (;;) {
      await sleep(options.pollIntervalMs, undefined, { signal });
      const now = Date.now();
      const statusDue = now - lastStatus >= options.statusIntervalMs;
      const statuses: NodeStatus[] = statusDue
        ? await Promise.all(clients.map(statusOf))
        : [await statusOf(clients[0] as RPCClient)];
      if (signal.aborted) return;
      const finalized = statuses[0]?.finalizedHeight;
      if (!finalityReported && finalized !== undefined && finalized > options.finalizedAtStart) {
        finalityReported = true;
        progress(finalityLine(finalized, now - options.startedAt));
      }
      if (statusDue) {
        lastStatus = now;
        progress(statusLine(statuses));
      }
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  }
};
