import { posWindows } from '../child_nodes/pos_windows.js';
import type { PeerInfo } from '../config/types.js';
import type { LocalNetworkSettings } from './settings.js';

/** This run's ports (they may change from run to run). */
export interface RunPorts {
  /** Node 0's JSON-RPC port; node i serves on firstRPCPort + i. */
  firstRPCPort: number;
  p2pPort: number;
}

/**
 * Node i's P2P address: 127.0.0.(i+1). One address per node, because a Klayr node drops the
 * peers that have its own IP from its seed and fixed peer lists and bans a peer by IP alone.
 */
export const nodeHost = (index: number): string => `127.0.0.${index + 1}`;

export const nodeRPCPort = (index: number, ports: RunPorts): number => ports.firstRPCPort + index;

/** Node `index`'s share of the validators: entries index, index + nodes, index + 2·nodes, … */
export const validatorShare = <T>(all: readonly T[], index: number, nodes: number): T[] =>
  all.filter((_, k) => k % nodes === index);

/**
 * The nodes that hold none of the first `validators` keys, the genesis validators of a network's
 * own genesis block: with validatorShare, node i holds key i, so the nodes from `validators` on
 * (none where there are at least as many validators as nodes). They generate nothing and follow.
 */
export const nodesWithoutGenesisValidator = (nodes: number, validators: number): number[] =>
  Array.from({ length: Math.max(nodes - validators, 0) }, (_, i) => validators + i);

/**
 * The peers node `index` knows from its config. Its seed peers are all the other nodes. Its fixed
 * peers, which a Klayr node never bans nor evicts and reconnects to whenever the link drops, are
 * its ring neighbours at distance 1 and 2 (every other node up to 5 nodes, Klayr's limit of 4
 * fixed peers beyond): the relation is symmetric, so no node can cut a neighbour off by banning
 * it, and the ring keeps all nodes connected whatever bans the seed links suffer.
 */
export const nodePeers = (
  index: number,
  nodes: number,
  p2pPort: number,
): { seedPeers: PeerInfo[]; fixedPeers: PeerInfo[] } => {
  const peer = (i: number): PeerInfo => ({ ip: nodeHost(i), port: p2pPort });
  const others = Array.from({ length: nodes }, (_, i) => i).filter((i) => i !== index);
  const neighbours = new Set([1, 2, -1, -2].map((d) => (((index + d) % nodes) + nodes) % nodes));
  neighbours.delete(index);
  return { seedPeers: others.map(peer), fixedPeers: [...neighbours].sort((a, b) => a - b).map(peer) };
};

/**
 * What node `index`'s overlay sets over its saved devnet config: the network's block time (with
 * the PoS windows it needs), its validator keys, its P2P address and peers, its RPC port with
 * every transport and method.
 */
export const nodeOverlayConfig = (
  index: number,
  settings: LocalNetworkSettings,
  ports: RunPorts,
  keysFileName: string,
): Record<string, unknown> => ({
  rpc: {
    modes: ['ipc', 'ws', 'http'],
    host: '127.0.0.1',
    port: nodeRPCPort(index, ports),
    allowedMethods: ['*'],
  },
  genesis: { blockTime: settings.blockTime },
  // relative to the overlay file's directory, the node's data path
  generator: { keys: { fromFile: `./${keysFileName}` } },
  network: {
    host: nodeHost(index),
    port: ports.p2pPort,
    ...nodePeers(index, settings.nodes, ports.p2pPort),
  },
  modules: { pos: posWindows(settings.blockTime) },
});
