// Two devnet chains from one genesis block on a simulated clock, for the synchronizer's tests over real chains.
import type { Logger } from 'pino';
import { pino } from 'pino';
import type { ExecutedBlock } from '../../src/engine/execution/executed_block.js';
import type { Generator } from '../../src/engine/generator/generator.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import { createLocalSignatureVerifier } from '../../src/engine/pools/signature_verifier.js';
import { createSynchronizer } from '../../src/engine/sync/index.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import type { OpenedChain } from '../../src/main/chain_setup.js';
import { openChain } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { closeDatabases, openDatabases } from '../../src/storage/database.js';
import { devnetGenerator } from './generator.js';
import type { peerServing } from './serving_peer.js';
import { tempDataPath } from './state.js';

export { PEER, peerServing } from './serving_peer.js';

export const SYNC_CHAIN_ID = Buffer.from('04000000', 'hex');
const config = loadConfig({ dataPath: tempDataPath() });
const BLOCK_TIME = config.genesis.blockTime;

export interface Node {
  dataPath: string;
  dbs: KestrelDatabases;
  opened: OpenedChain;
  generator: Generator;
  clock: () => number;
}

const openNode = (dataPath: string, clock: () => number): Node => {
  const dbs = openDatabases(dataPath);
  const opened = openChain(config, dbs, { now: clock });
  return { dataPath, dbs, opened, generator: devnetGenerator(opened, config, dbs.generator, clock), clock };
};

export const devnetNode = (clock: () => number): Node => openNode(tempDataPath(), clock);

/** The node's LMDB environment closed where it stands (what a crash leaves on disk) and opened again. */
export const reopen = async (node: Node): Promise<Node> => {
  await closeDatabases(node.dbs);
  return openNode(node.dataPath, node.clock);
};

/** Blocks generated in the slots from `firstSlot`, two seconds into each. */
export const generate = async (node: Node, clock: { now: number }, firstSlot: number, count: number): Promise<void> => {
  for (let slot = firstSlot; slot < firstSlot + count; slot++) {
    clock.now = slot * BLOCK_TIME + 2;
    if ((await node.generator.tick()) === undefined) throw new Error(`no block generated in slot ${slot}`);
  }
};

/** The node's synchronizer; `clock` is what it reads the current slot from (block synchronization wants three rounds since finality). */
export const synchronizerOf = (
  node: Node,
  peers: ReturnType<typeof peerServing>['peers'],
  clock: () => number,
  logger: Logger = pino({ level: 'silent' }),
) => {
  const seen = { committed: [] as string[], deleted: [] as string[] };
  const { chain, blocks, tempBlocks, processor } = node.opened;
  const synchronizer = createSynchronizer({
    chain,
    blocks,
    tempBlocks,
    processor,
    verifiers: { bls: createLocalBlsVerifier(), signatures: createLocalSignatureVerifier(SYNC_CHAIN_ID) },
    peers,
    logger,
    onBlockCommitted: (executed: ExecutedBlock) =>
      seen.committed.push(blockHeaderID(executed.block.header).toString('hex')),
    onBlockDeleted: (block) => seen.deleted.push(blockHeaderID(block.header).toString('hex')),
    now: clock,
  });
  return { synchronizer, seen };
};

/** The IDs of the node's blocks from height 1 to its tip. */
export const idsOf = (node: Node): string[] => {
  const { chain } = node.opened;
  return Array.from({ length: chain.lastBlock().header.height }, (_, i) => {
    const header = chain.headerAt(i + 1);
    return header === undefined ? 'none' : blockHeaderID(header).toString('hex');
  });
};

/** Two devnet nodes from one genesis: A with 6 blocks from slot s+1, B with 5 of its own from slot s+2. */
export const forkedNodes = async () => {
  const clock = { now: 0 };
  const now = () => clock.now;
  const a = devnetNode(now);
  const b = devnetNode(now);
  const firstSlot = Math.floor(a.opened.genesis.header.timestamp / BLOCK_TIME) + 1;
  await generate(a, clock, firstSlot, 6);
  await generate(b, clock, firstSlot + 1, 5);
  clock.now = (firstSlot + 7) * BLOCK_TIME + 1;
  // a node that has been off for more than three rounds (of 103 slots) since its finalized block: block synchronization
  const later = () => clock.now + 400 * BLOCK_TIME;
  return { a, b, now, later };
};
