// The interoperability differential's two executors over one chain (the devnet mainchain, or a
// sidechain started from the devnet genesis): Kestrel's state machine with the modules
// src/main/modules.ts picks for the chain ID, and klayr-framework's modules wired as Klayr's
// application wires them, each from the genesis state, block by block. A step executes one block on
// both; Klayr's decision is followed (a block Klayr refuses is undone on Kestrel's side too). After
// every step the accept or refuse decision, refusal messages, execution results, events and every
// state entry are compared.
import { createRequire } from 'node:module';
import './interop_oracle_smt.js';
import type { StateBase } from '../../src/engine/state/state_db.js';
import { BlockState, EMPTY_STATE, inIterationOrder } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import { StateMachine } from '../../src/engine/state_machine/state_machine.js';
import type { Block, BlockHeader } from '../../src/lib/chain/block.js';
import type { BlockEvent } from '../../src/lib/chain/events.js';
import { codec } from '../../src/lib/codec/index.js';
import { computeStorePrefix } from '../../src/lib/state/keys.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { randomAssetSchema } from '../../src/modules/random/method.js';
import { getValidatorsParams } from '../../src/modules/validators/method.js';
import { devnetChainID, devnetGenesis } from './genesis_compare.js';
import { klayrExecuteBlock } from './klayr_block.js';
import type { KlayrGenesisResult } from './klayr_genesis.js';
import { runKlayrGenesis } from './klayr_genesis.js';
import type { Rng } from './random.js';

const LEGACY = computeStorePrefix('legacy').toString('hex');

/**
 * Klayr raises a panic (process.exit) when processing a CCU's messages throws, e.g. when a
 * mainchain terminates a chain while applying a CCM (terminateChainInternal sends without the
 * timestamp the mainchain requires). A node that panics never accepts the block, so the harness
 * records the panic and counts the block as refused by Klayr.
 */
const panics: Error[] = [];
const klayrPanic = createRequire(import.meta.url)('klayr-framework/dist-node/utils/panic') as {
  panic: (logger: unknown, error: unknown) => void;
};
klayrPanic.panic = (_logger, error) => {
  panics.push(error instanceof Error ? error : new Error(String(error)));
  throw new Error(`Klayr panic: ${panics.at(-1)!.message}`);
};

export const BLOCK_TIME = 7;

type EventRecord = Pick<BlockEvent, 'module' | 'name' | 'data' | 'topics' | 'height' | 'index'>;

/** One disagreement between Kestrel and Klayr, with what each side had. */
export interface Difference {
  step: string;
  height: number;
  what: 'decision' | 'refusal' | 'results' | 'event' | 'state' | 'harness';
  detail: string;
}

export interface StepOutcome {
  /** Klayr's decision (the scenario follows the oracle). */
  accepted: boolean;
  klayrError?: string;
  kestrelError?: string;
  results: number[];
  events: EventRecord[];
  differences: Difference[];
}

/** A chain both sides start from: its chain ID, genesis block and Klayr's genesis execution. */
export interface Network {
  name: string;
  chainID: Buffer;
  genesisBlock: () => Block;
  klayrGenesis: () => Promise<KlayrGenesisResult>;
}

export const DEVNET_MAINCHAIN: Network = {
  name: 'devnet mainchain',
  chainID: devnetChainID,
  genesisBlock: devnetGenesis,
  klayrGenesis: () => runKlayrGenesis(),
};

interface Genesis {
  kestrel: Map<string, Buffer>;
  klayr: KlayrGenesisResult;
  klayrEntries: Map<string, Buffer>;
}

const genesisStates = new Map<string, Promise<Genesis>>();

/** Kestrel's modules for a chain: the devnet config under the network's chain ID. */
const kestrelModules = (network: Network) => {
  const config = loadConfig();
  config.genesis.chainID = network.chainID.toString('hex');
  return applicationModules(config);
};

/** Both sides' genesis state, computed once per network and test file; every scenario starts from a copy. */
const genesisStatesOf = (network: Network): Promise<Genesis> => {
  let states = genesisStates.get(network.name);
  if (states === undefined) {
    states = (async () => {
      const state = new BlockState(EMPTY_STATE);
      executeGenesis(kestrelModules(network), network.genesisBlock(), network.chainID, state);
      const kestrel = new Map(
        state.overlay
          .changes()
          .filter((c) => c.value !== undefined)
          .map((c) => [c.key.toString('hex'), c.value!]),
      );
      const klayr = await network.klayrGenesis();
      return { kestrel, klayr, klayrEntries: new Map(klayr.store.data) };
    })();
    genesisStates.set(network.name, states);
  }
  return states;
};

/** A read-only state base over a copy of entries (keys in hex). */
const memoryBase = (entries: Map<string, Buffer>): StateBase => {
  const sorted = [...entries]
    .map(([k, value]) => ({ key: Buffer.from(k, 'hex'), value }))
    .sort((a, b) => Buffer.compare(a.key, b.key));
  return {
    get: (key) => entries.get(key.toString('hex')),
    iterate: (options) =>
      inIterationOrder(
        sorted.filter(({ key }) => Buffer.compare(key, options.gte) >= 0 && Buffer.compare(key, options.lte) <= 0),
        options,
      ),
  };
};

const eventLabel = (e: EventRecord | undefined): string =>
  e === undefined
    ? 'none'
    : `${e.module}:${e.name} topics=[${e.topics.map((t) => t.toString('hex')).join(',')}] data=${e.data.toString('hex')}`;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
/** The reason after the transaction ID in either side's "failed to verify transaction <id>" message. */
const refusalReason = (message: string): string =>
  message.replace(/^.*?[Ff]ailed to verify transaction [0-9a-f]{64}[.:]\s*/, '').trim();

export class InteropChains {
  readonly chainID: Buffer;
  readonly machine: StateMachine;
  #previous: BlockHeader;
  #timestamp: number;

  private constructor(
    readonly network: Network,
    readonly state: BlockState,
    readonly klayr: KlayrGenesisResult,
    private readonly rng: Rng,
  ) {
    this.chainID = network.chainID;
    this.machine = new StateMachine(kestrelModules(network));
    this.#previous = network.genesisBlock().header;
    this.#timestamp = this.#previous.timestamp;
  }

  /** Both executors from the network's genesis state (throws when Kestrel's genesis does). */
  static async start(rng: Rng, network: Network = DEVNET_MAINCHAIN): Promise<InteropChains> {
    const g = await genesisStatesOf(network);
    g.klayr.store.data.clear();
    for (const [k, v] of g.klayrEntries) g.klayr.store.data.set(k, v);
    return new InteropChains(network, new BlockState(memoryBase(g.kestrel)), g.klayr, rng);
  }

  get height(): number {
    return this.#previous.height;
  }
  /** The timestamp the next block gets unless a step says otherwise. */
  get nextTimestamp(): number {
    return this.#timestamp + BLOCK_TIME;
  }

  /** Klayr's module instances (store keys, schemas, method calls over Klayr's state). */
  get modules(): Record<string, any> {
    // eslint-disable-line @typescript-eslint/no-explicit-any
    return this.klayr.modules;
  }

  /** Reads one of Klayr's stores (the oracle's view of the state). */
  async klayrStore<T>(module: string, storeClass: unknown, key: Buffer): Promise<T | undefined> {
    const store = this.klayr.modules[module].stores.get(storeClass);
    const ctx = this.klayr.endpointContext({});
    return store.has(ctx, key).then((has: boolean) => (has ? store.get(ctx, key) : undefined));
  }

  #blockAt(timestamp: number, transactions: TransactionObject[]): Block {
    const validators = getValidatorsParams({ store: (p, s) => new SubStore(this.state, p, s) }).validators;
    const generatorAddress = validators[Math.floor(timestamp / BLOCK_TIME) % validators.length]!.address;
    const header: BlockHeader = {
      ...this.#previous,
      height: this.#previous.height + 1,
      timestamp,
      generatorAddress,
      previousBlockID: Buffer.alloc(32),
    };
    return {
      header,
      transactions,
      assets: [{ module: 'random', data: codec.encode(randomAssetSchema, { seedReveal: this.rng.bytes(16) }) }],
    };
  }

  /** Executes one block with `transactions` on both sides (the timestamp defaults to the next slot) and compares. */
  async step(name: string, transactions: TransactionObject[], timestamp = this.nextTimestamp): Promise<StepOutcome> {
    const block = this.#blockAt(timestamp, transactions);
    const height = block.header.height;
    const differences: Difference[] = [];
    const differ = (what: Difference['what'], detail: string) => differences.push({ step: name, height, what, detail });

    const saved = new Map(this.klayr.store.data);
    let theirs: Awaited<ReturnType<typeof klayrExecuteBlock>> | undefined;
    let klayrError: string | undefined;
    panics.length = 0;
    try {
      theirs = await klayrExecuteBlock(this.klayr, block);
      if (panics.length > 0) throw panics[0];
    } catch (error) {
      theirs = undefined;
      klayrError = panics.length > 0 ? `panic: ${panics[0]!.message}` : errorText(error);
      this.klayr.store.data.clear();
      for (const [k, v] of saved) this.klayr.store.data.set(k, v);
    }
    const snapshot = this.state.snapshot();
    let ours: ReturnType<StateMachine['executeBlock']> | undefined;
    let kestrelError: string | undefined;
    try {
      ours = this.machine.executeBlock(block, this.chainID, this.state);
    } catch (error) {
      kestrelError = errorText(error);
      this.state.restoreSnapshot(snapshot);
    }

    if ((theirs === undefined) !== (ours === undefined)) {
      differ(
        'decision',
        theirs === undefined
          ? `Klayr refused (${klayrError}), Kestrel accepted`
          : `Klayr accepted, Kestrel refused (${kestrelError})`,
      );
      // follow the oracle: a block only Kestrel accepted is undone there; one only Kestrel refused ends the comparison
      if (ours !== undefined) this.state.restoreSnapshot(snapshot);
    } else if (
      klayrError !== undefined &&
      kestrelError !== undefined &&
      panics.length === 0 &&
      refusalReason(klayrError) !== refusalReason(kestrelError)
    ) {
      differ('refusal', `Klayr: ${refusalReason(klayrError)} | Kestrel: ${refusalReason(kestrelError)}`);
    }
    if (theirs !== undefined && ours !== undefined) {
      if (ours.results.join() !== theirs.results.join())
        differ('results', `Klayr [${theirs.results.join()}] Kestrel [${ours.results.join()}]`);
      const klayrEvents: EventRecord[] = theirs.events.map((e) => ({
        module: e.module,
        name: e.name,
        data: e.data,
        topics: e.topics,
        height: e.height,
        index: e.index,
      }));
      const length = Math.max(klayrEvents.length, ours.events.length);
      for (let i = 0; i < length; i++) {
        const a = klayrEvents[i];
        const b = ours.events[i];
        const same =
          a !== undefined &&
          b !== undefined &&
          a.module === b.module &&
          a.name === b.name &&
          a.data.equals(b.data) &&
          a.height === b.height &&
          a.topics.length === b.topics.length &&
          a.topics.every((t, j) => t.equals(b.topics[j]!));
        if (!same) {
          differ(
            'event',
            `event ${i} of ${klayrEvents.length}/${ours.events.length}: Klayr ${eventLabel(a)} | Kestrel ${eventLabel(b)}`,
          );
          break;
        }
      }
    }
    if (theirs !== undefined || ours !== undefined) differences.push(...this.#compareState(name, height));
    if (theirs !== undefined) {
      this.#previous = block.header;
      this.#timestamp = timestamp;
    }
    return {
      accepted: theirs !== undefined,
      ...(klayrError !== undefined ? { klayrError: refusalReason(klayrError) } : {}),
      ...(kestrelError !== undefined ? { kestrelError: refusalReason(kestrelError) } : {}),
      results: theirs?.results ?? [],
      events: theirs?.events ?? [],
      differences,
    };
  }

  /** Every state entry (the legacy module's aside, Klayr's set has no legacy module). */
  #compareState(step: string, height: number): Difference[] {
    const mine = new Map(
      this.state
        .iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(80, 0xff) })
        .filter((e) => !e.key.toString('hex').startsWith(LEGACY))
        .map((e) => [e.key.toString('hex'), e.value.toString('hex')]),
    );
    const klayr = new Map([...this.klayr.store.data].map(([k, v]) => [k, v.toString('hex')]));
    const differing = [...new Set([...mine.keys(), ...klayr.keys()])]
      .filter((k) => mine.get(k) !== klayr.get(k))
      .sort();
    return differing.slice(0, 6).map((k) => ({
      step,
      height,
      what: 'state' as const,
      detail: `${k}: Klayr ${klayr.get(k) ?? 'absent'} | Kestrel ${mine.get(k) ?? 'absent'}`,
    }));
  }
}
