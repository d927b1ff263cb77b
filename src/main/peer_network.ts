import { isIPv4 } from 'node:net';
import type { Logger } from 'pino';
import type { BlockStore } from '../engine/chain/block_store.js';
import type { Chain } from '../engine/chain/chain.js';
import type { LegacyStore } from '../engine/legacy/legacy_store.js';
import type { SignatureVerifier } from '../engine/pools/signature_verifier.js';
import type { TransactionPool } from '../engine/txpool/index.js';
import type { TransactionVerifier } from '../engine/txpool/transaction_verifier.js';
import type { Block } from '../lib/chain/block.js';
import { blockHeaderID, encodeBlock } from '../lib/chain/block.js';
import type { PostBlockEvent } from '../lib/chain/p2p_schemas.js';
import { postBlockEventSchema } from '../lib/chain/p2p_schemas.js';
import { compile } from '../lib/codec/index.js';
import { P2P } from '../network/p2p/p2p.js';
import { resolvePeerAddresses } from '../network/p2p/resolve.js';
import type { NodeInfoOptions, P2PConfig } from '../network/p2p/types.js';
import type { BlockSink } from '../network/protocol/block_procedures.js';
import { registerBlockProcedures } from '../network/protocol/block_procedures.js';
import { registerLegacyProcedures } from '../network/protocol/legacy_procedures.js';
import { Network } from '../network/protocol/network.js';
import { TransactionBroadcaster } from '../network/protocol/transaction_broadcaster.js';
import { registerTransactionProcedures } from '../network/protocol/transaction_procedures.js';
import { networkEndpoints } from '../network/rpc_endpoints.js';
import type { EndpointRegistry } from '../rpc/registry.js';
import type { BinaryDB } from '../storage/database.js';
import { networkSecret, savedTriedPeers, saveTriedPeers } from '../storage/network_records.js';
import type { ApplicationConfig } from './config/types.js';
import { NETWORK_DEFAULTS, p2pAddressOf } from './p2p_address.js';
import { chainSource, legacySource, transactionSource } from './peer_sources.js';

/** Klayr saves the tried peers every 10 minutes (DEFAULT_PEER_SAVE_INTERVAL); Kestrel also saves them on stop. */
const PEER_SAVE_INTERVAL_MS = 10 * 60 * 1000;
/** @klayr/p2p penalises more than 4 postNodeInfo per peer in 10 s: a syncing node announces its tip at most every 2.5 s. */
const NODE_INFO_MIN_INTERVAL_MS = 2500;

export interface PeerNetworkParts {
  config: ApplicationConfig;
  chain: Chain;
  blocks: BlockStore;
  pool: TransactionPool;
  transactionVerifier: TransactionVerifier;
  signatures: SignatureVerifier;
  /** Where the peer book's secret and tried peers are kept. */
  meta: BinaryDB;
  blockSink: BlockSink;
  /** The legacy chain's blocks, served to peers (getLegacyBlocksFromId). */
  legacy: LegacyStore;
  logger: Logger;
  publish: (event: string, data: unknown) => void;
}

const peerList = (peers: unknown): { ip: string; port: number }[] =>
  Array.isArray(peers) ? (peers as { ip: string; port: number }[]) : [];

/** The node's P2P config from `network.*` (seed peers' DNS names resolved). */
export const p2pConfigOf = async (config: ApplicationConfig, meta: BinaryDB, tip: Block): Promise<P2PConfig> => {
  const n = config.network;
  const num = (key: keyof typeof NETWORK_DEFAULTS & string, fallback: number): number =>
    typeof n[key] === 'number' ? (n[key] as number) : fallback;
  const fromConfig = (peers: unknown) => peerList(peers).map(({ ip, port }) => ({ ipAddress: ip, port }));
  return {
    hostIp: p2pAddressOf(config).host,
    port: p2pAddressOf(config).port,
    nodeInfo: {
      chainID: Buffer.from(config.genesis.chainID, 'hex'),
      networkVersion: n.version ?? '1.0',
      advertiseAddress:
        typeof n.advertiseAddress === 'boolean' ? n.advertiseAddress : NETWORK_DEFAULTS.advertiseAddress,
      options: nodeInfoOptionsOf(tip),
    },
    seedPeers: await resolvePeerAddresses(n.seedPeers),
    fixedPeers: fromConfig(n.fixedPeers),
    whitelistedPeers: fromConfig(n.whitelistedPeers),
    blacklistedIPs: Array.isArray(n.blacklistedIPs) ? (n.blacklistedIPs as string[]) : [],
    previousPeers: savedTriedPeers(meta),
    maxOutboundConnections: num('maxOutboundConnections', NETWORK_DEFAULTS.maxOutboundConnections),
    maxInboundConnections: num('maxInboundConnections', NETWORK_DEFAULTS.maxInboundConnections),
    wsMaxPayload: num('wsMaxPayload', NETWORK_DEFAULTS.wsMaxPayload),
    secret: networkSecret(meta),
  };
};

/** What a node tells its peers of its tip (klayr-framework's applyNodeInfo after each block). */
export const nodeInfoOptionsOf = (tip: Block, legacy: readonly Buffer[] = []): NodeInfoOptions => ({
  height: tip.header.height,
  maxHeightPrevoted: tip.header.maxHeightPrevoted,
  blockVersion: tip.header.version,
  lastBlockID: blockHeaderID(tip.header),
  legacy,
});

/**
 * The node on Klayr's P2P network: the P2P layer, the framework's procedures and events over it,
 * transaction announcements, the tip announced to peers after each block, blocks sent on.
 */
export class PeerNetwork {
  readonly network: Network;
  readonly #broadcaster: TransactionBroadcaster;
  readonly #saveTimer: NodeJS.Timeout;
  #nodeInfoTimer?: NodeJS.Timeout;
  #nodeInfoSentAt = 0;
  #legacy: readonly Buffer[] = [];
  /** Seed peers named by a host name that did not resolve to an IPv4 address: the P2P layer drops them. */
  readonly #unresolvedSeeds: readonly string[];

  private constructor(
    private readonly parts: PeerNetworkParts,
    p2pConfig: P2PConfig,
  ) {
    const { chain, blocks, pool, transactionVerifier, signatures, logger, publish } = parts;
    this.#unresolvedSeeds = p2pConfig.seedPeers
      .filter(({ ipAddress }) => !isIPv4(ipAddress))
      .map(({ ipAddress, port }) => `${ipAddress}:${port}`);
    this.network = new Network(new P2P(p2pConfig), logger);
    registerBlockProcedures(this.network, chainSource(chain, blocks), parts.blockSink, logger);
    registerLegacyProcedures(this.network, legacySource(parts.legacy), logger);
    registerTransactionProcedures(
      this.network,
      transactionSource(pool, blocks, transactionVerifier, signatures),
      logger,
      (ids) => publish('network_newTransaction', { transactionIDs: ids.map((id) => id.toString('hex')) }),
    );
    // the P2P layer keeps the peer's node info; Klayr's framework only logs the event
    this.network.registerEvent('postNodeInfo', () => undefined);
    this.#broadcaster = new TransactionBroadcaster(this.network, (id) => pool.contains(id));
    pool.events.on('added', ({ transaction }) => this.#broadcaster.enqueue(transaction.id));
    this.#saveTimer = setInterval(() => this.#saveTriedPeers(), PEER_SAVE_INTERVAL_MS);
    this.#saveTimer.unref();
  }

  static async create(parts: PeerNetworkParts): Promise<PeerNetwork> {
    return new PeerNetwork(parts, await p2pConfigOf(parts.config, parts.meta, parts.chain.lastBlock()));
  }

  registerEndpoints(registry: EndpointRegistry): void {
    registry.registerNamespace('network', networkEndpoints(this.network.p2p));
  }

  async start(): Promise<void> {
    await this.network.start();
    this.#broadcaster.start();
    const { host, port } = p2pAddressOf(this.parts.config);
    const seeds = this.parts.config.network.seedPeers.map(({ ip, port: seedPort }) => `${ip}:${seedPort}`);
    this.parts.logger.info(
      { host, port, seedPeers: seeds },
      `P2P server listening on ${host}:${port}; seed peers: ${seeds.length === 0 ? 'none' : seeds.join(', ')}`,
    );
    if (this.#unresolvedSeeds.length > 0)
      this.parts.logger.warn(
        { seedPeers: this.#unresolvedSeeds },
        `Seed peers not dialled: ${this.#unresolvedSeeds.join(', ')} did not resolve to an IPv4 address`,
      );
  }

  async stop(): Promise<void> {
    clearInterval(this.#saveTimer);
    clearTimeout(this.#nodeInfoTimer);
    this.#broadcaster.stop();
    this.#saveTriedPeers();
    await this.network.stop();
  }

  /** A block this node generated or received and checked: on to peers (klayr-framework sends it before executing). */
  sendBlock(block: Block): void {
    const data = compile<PostBlockEvent>(postBlockEventSchema).encode({ block: encodeBlock(block) });
    this.network.send('postBlock', data);
  }

  /** The legacy brackets synced so far (snapshot block IDs): announced in the node info, as Klayr's applyNodeInfo. */
  legacySynced(snapshotBlockIDs: readonly Buffer[]): void {
    this.#legacy = [...snapshotBlockIDs];
    this.tipChanged();
  }

  /** The tip changed: peers learn it, at most every 2.5 s (the last change always goes out). */
  tipChanged(): void {
    if (this.#nodeInfoTimer !== undefined) return;
    const wait = Math.max(0, this.#nodeInfoSentAt + NODE_INFO_MIN_INTERVAL_MS - Date.now());
    const push = (): void => {
      this.#nodeInfoTimer = undefined;
      this.#nodeInfoSentAt = Date.now();
      const { nodeInfo } = this.network.p2p;
      const { nonce: _nonce, ...info } = nodeInfo;
      this.network.p2p.applyNodeInfo({
        ...info,
        options: nodeInfoOptionsOf(this.parts.chain.lastBlock(), this.#legacy),
      });
    };
    if (wait === 0) push();
    else {
      this.#nodeInfoTimer = setTimeout(push, wait);
      this.#nodeInfoTimer.unref();
    }
  }

  #saveTriedPeers(): void {
    const tried = this.network.p2p.getTriedPeers();
    if (tried.length > 0) saveTriedPeers(this.parts.meta, tried);
  }
}
