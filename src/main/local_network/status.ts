import type { NodeInfo } from '../child_nodes/rpc.js';

/** A node's place on its chain, as system_getNodeInfo reports it; undefined when it did not answer. */
export type NodeStatus = Pick<NodeInfo, 'height' | 'finalizedHeight' | 'lastBlockID'> | undefined;

/** The periodic status line: each node's height ("?" where it did not answer), node 0's finalized height. */
export const statusLine = (statuses: readonly NodeStatus[]): string =>
  `Status: ${statuses.map((s, i) => `node ${i} at ${s?.height ?? '?'}`).join(', ')}; finalized height ${statuses[0]?.finalizedHeight ?? '?'} (node 0)`;

export const finalityLine = (finalizedHeight: number, tookMs: number): string =>
  `Finality advanced: finalized height ${finalizedHeight} (took ${Math.round(tookMs / 1000)} s)`;
