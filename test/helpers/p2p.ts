// Kestrel and @klayr/p2p nodes for the P2P tests: one config builder for both, bounded waits.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { P2P } from '../../src/network/p2p/p2p.js';
import type { NodeInfo, NodeInfoOptions, P2PConfig } from '../../src/network/p2p/types.js';

const require = createRequire(import.meta.url);
/** The parts of @klayr/p2p's P2P the tests use. */
export interface KlayrPeerInfo {
  readonly peerId: string;
  readonly ipAddress: string;
  readonly port: number;
  readonly chainID?: Buffer;
  readonly networkVersion?: string;
  readonly nonce?: string;
  readonly options?: Record<string, unknown>;
}
export interface KlayrRequest {
  readonly procedure: string;
  readonly data: Buffer | undefined;
  readonly peerId: string;
  readonly rate: number;
  end(data?: Buffer): void;
  error(error: Error): void;
}
export interface KlayrP2PNode extends NodeJS.EventEmitter {
  readonly nodeInfo: NodeInfo;
  start(): Promise<void>;
  stop(): Promise<void>;
  applyNodeInfo(nodeInfo: Omit<NodeInfo, 'nonce'>): void;
  applyPenalty(penalty: { peerId: string; penalty: number }): void;
  getConnectedPeers(): KlayrPeerInfo[];
  getDisconnectedPeers(): KlayrPeerInfo[];
  getTriedPeers(): KlayrPeerInfo[];
  request(packet: { procedure: string; data?: Buffer }): Promise<{ peerId: string; data?: Buffer }>;
  requestFromPeer(
    packet: { procedure: string; data?: Buffer },
    peerId: string,
  ): Promise<{ peerId: string; data?: Buffer }>;
  send(packet: { event: string; data?: Buffer }): void;
  sendToPeer(packet: { event: string; data?: Buffer }, peerId: string): void;
  broadcast(packet: { event: string; data?: Buffer }): void;
  getNetworkStats(): unknown;
}

export const klayrP2P = require('@klayr/p2p') as { P2P: new (config: Record<string, unknown>) => KlayrP2PNode };
const { customNodeInfoSchema } = require('klayr-framework/dist-node/engine/network/schema.js') as {
  customNodeInfoSchema: Record<string, unknown>;
};

export const CHAIN_ID = Buffer.from('04000000', 'hex');

export const nodeOptions = (height = 1): NodeInfoOptions => ({
  height,
  maxHeightPrevoted: 0,
  blockVersion: 2,
  lastBlockID: Buffer.alloc(32, height),
  legacy: [],
});

export const baseNodeInfo = (overrides: Partial<NodeInfo> = {}): Omit<NodeInfo, 'nonce'> => ({
  chainID: CHAIN_ID,
  networkVersion: '5.1',
  advertiseAddress: true,
  options: nodeOptions(),
  ...overrides,
});

/**
 * A port in 10000..32767 for a P2P server on a 127.0.0.x address (which the OS port picker does not cover), below
 * Linux's ephemeral range so that the tests' own outbound connections never hold it.
 */
export const randomPort = (): number => 10000 + Math.floor(Math.random() * 22768);

export const kestrelConfig = (overrides: Partial<P2PConfig> & Pick<P2PConfig, 'hostIp' | 'port'>): P2PConfig => ({
  nodeInfo: baseNodeInfo(),
  seedPeers: [],
  fixedPeers: [],
  whitelistedPeers: [],
  blacklistedIPs: [],
  previousPeers: [],
  maxOutboundConnections: 20,
  maxInboundConnections: 100,
  wsMaxPayload: 3048576,
  secret: 123456789,
  populatorIntervalMs: 200,
  fallbackSeedDiscoveryIntervalMs: 500,
  ...overrides,
});

export const startKestrel = async (
  overrides: Partial<P2PConfig> & Pick<P2PConfig, 'hostIp' | 'port'>,
): Promise<P2P> => {
  const p2p = new P2P(kestrelConfig(overrides));
  await p2p.start();
  return p2p;
};

/** @klayr/p2p's P2P configured as klayr-framework's Network configures it (custom node info schema). */
export const startKlayr = async (
  config: Record<string, unknown> & { hostIp: string; port: number },
): Promise<KlayrP2PNode> => {
  const p2p = new klayrP2P.P2P({
    nodeInfo: { ...baseNodeInfo(), nonce: '' },
    seedPeers: [],
    blacklistedIPs: [],
    fixedPeers: [],
    whitelistedPeers: [],
    previousPeers: [],
    maxOutboundConnections: 20,
    maxInboundConnections: 100,
    wsMaxPayload: 3048576,
    secret: 987654321,
    customNodeInfoSchema,
    populatorInterval: 200,
    fallbackSeedPeerDiscoveryInterval: 500,
    ...config,
  });
  await p2p.start();
  return p2p;
};

/** Resolves when `predicate` holds, polling every 20 ms; rejects after `timeoutMs`. */
export const waitFor = async (predicate: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** The next emission of `event`, within `timeoutMs`. */
export const nextEvent = async <T extends unknown[]>(
  emitter: NodeJS.EventEmitter,
  event: string,
  timeoutMs = 5000,
): Promise<T> => (await once(emitter, event, { signal: AbortSignal.timeout(timeoutMs) })) as T;
