// Oracle: runs klayr-framework's own modules (Klayr Core's mainchain set, wired as
// Application.defaultApplication does) over a genesis block, on an in-memory state store,
// and returns the state entries and events Klayr produces.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { devnetFile } from './devnet.js';
import { klayrChain } from './klayr.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);
const { NotFoundError } = require('@liskhq/lisk-db') as { NotFoundError: new (m: string) => Error };

const silent: any = {
  info: () => undefined,
  debug: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  trace: () => undefined,
  fatal: () => undefined,
  level: () => 'none',
};
silent.child = () => silent;

/** lisk-db's StateReadWriter interface, in memory (get throws NotFoundError like lisk-db's). */
export class MemoryStateReadWriter {
  readonly data = new Map<string, Buffer>();
  async get(key: Buffer): Promise<Buffer> {
    const v = this.data.get(key.toString('hex'));
    if (v === undefined) throw new NotFoundError(`${key.toString('hex')} not found`);
    return Buffer.from(v);
  }
  async has(key: Buffer): Promise<boolean> {
    return this.data.has(key.toString('hex'));
  }
  async set(key: Buffer, value: Buffer): Promise<void> {
    this.data.set(key.toString('hex'), Buffer.from(value));
  }
  async del(key: Buffer): Promise<void> {
    this.data.delete(key.toString('hex'));
  }
  async range(options: {
    gte: Buffer;
    lte: Buffer;
    limit?: number;
    reverse?: boolean;
  }): Promise<{ key: Buffer; value: Buffer }[]> {
    let entries = [...this.data]
      .map(([k, value]) => ({ key: Buffer.from(k, 'hex'), value }))
      .filter(({ key }) => Buffer.compare(key, options.gte) >= 0 && Buffer.compare(key, options.lte) <= 0)
      .sort((a, b) => Buffer.compare(a.key, b.key));
    if (options.reverse === true) entries = entries.reverse();
    return options.limit === undefined ? entries : entries.slice(0, options.limit);
  }
  readonly #snapshots: Map<string, Buffer>[] = [];
  snapshot(): number {
    this.#snapshots.push(new Map(this.data));
    return this.#snapshots.length - 1;
  }
  restoreSnapshot(id: number): void {
    const saved = this.#snapshots[id];
    if (saved === undefined) throw new Error(`No snapshot ${id}`);
    this.#snapshots.length = id;
    this.data.clear();
    for (const [k, v] of saved) this.data.set(k, v);
  }
}

export interface KlayrGenesisResult {
  entries: { key: Buffer; value: Buffer }[];
  events: { module: string; name: string; data: Buffer; topics: Buffer[]; height: number; index: number }[];
  nextValidators: { address: Buffer; bftWeight: bigint; blsKey: Buffer; generatorKey: Buffer }[];
  certificateThreshold: bigint;
  precommitThreshold: bigint;
  /** klayr-framework's module instances, initialized, for calling their endpoints. */
  modules: Record<string, any>;
  /** klayr-framework's StateMachine with the modules registered, and the state it runs on. */
  machine: any;
  store: MemoryStateReadWriter;
  chainID: Buffer;
  /** Context for Klayr endpoints over the genesis state. */
  endpointContext: (params: Record<string, unknown>, height?: number) => any;
}

/**
 * klayr-framework's default application (Application.defaultApplication: the mainchain set, or the
 * sidechain set with SidechainInteroperabilityModule) wired as Klayr wires it, run over a genesis
 * block with a Klayr config (its genesis and modules sections).
 */
export const runKlayrApplicationGenesis = async (
  config: any,
  blob: Buffer,
  mainchain: boolean,
): Promise<KlayrGenesisResult> => {
  const chainID = Buffer.from(config.genesis.chainID, 'hex');
  const auth = new (fw('modules/auth').AuthModule)();
  const token = new (fw('modules/token').TokenModule)();
  const fee = new (fw('modules/fee').FeeModule)();
  const dynamicReward = new (fw('modules/dynamic_reward').DynamicRewardModule)();
  const random = new (fw('modules/random').RandomModule)();
  const validators = new (fw('modules/validators').ValidatorsModule)();
  const pos = new (fw('modules/pos').PoSModule)();
  const interop = mainchain
    ? new (fw('modules/interoperability').MainchainInteroperabilityModule)()
    : new (fw('modules/interoperability').SidechainInteroperabilityModule)();
  if (mainchain) interop.addDependencies(token.method, fee.method);
  else interop.addDependencies(validators.method, token.method);
  fee.addDependencies(token.method, interop.method);
  dynamicReward.addDependencies(token.method, random.method, validators.method, pos.method);
  pos.addDependencies(random.method, validators.method, token.method, fee.method);
  token.addDependencies(interop.method, fee.method);
  interop.registerInteroperableModule(token);
  interop.registerInteroperableModule(fee);

  const { StateMachine, GenesisBlockContext, EventQueue } = fw('state_machine');
  const { PrefixedStateReadWriter } = fw('state_machine/prefixed_state_read_writer');
  const machine = new StateMachine();
  for (const m of [auth, validators, token, fee, interop, pos, random, dynamicReward]) machine.registerModule(m);
  const genesisConfig = {
    ...fw('schema/application_config_schema').applicationConfigSchema.default.genesis,
    ...config.genesis,
    chainID: config.genesis.chainID,
  };
  await machine.init(silent, genesisConfig, config.modules);

  const block = klayrChain.Block.fromBytes(blob);
  const store = new MemoryStateReadWriter();
  const ctx = new GenesisBlockContext({
    eventQueue: new EventQueue(block.header.height),
    header: block.header,
    logger: silent,
    stateStore: new PrefixedStateReadWriter(store),
    assets: block.assets,
    chainID,
  });
  await machine.executeGenesisBlock(ctx);
  const events = ctx.eventQueue.getEvents().map((e: any, index: number) => ({ ...e.toObject(), index }));
  return {
    entries: [...store.data]
      .map(([k, value]) => ({ key: Buffer.from(k, 'hex'), value }))
      .sort((a, b) => Buffer.compare(a.key, b.key)),
    events,
    nextValidators: ctx.nextValidators.validators,
    certificateThreshold: ctx.nextValidators.certificateThreshold,
    precommitThreshold: ctx.nextValidators.precommitThreshold,
    modules: { auth, token, fee, dynamicReward, random, validators, pos, interoperability: interop },
    machine,
    store,
    chainID,
    endpointContext: (params, height = 0) => {
      const prefixed = new PrefixedStateReadWriter(store);
      return {
        params,
        chainID,
        logger: silent,
        getStore: (p: Buffer, sp: Buffer) => prefixed.getStore(p, sp),
        getImmutableMethodContext: () => ({ getStore: (p: Buffer, sp: Buffer) => prefixed.getStore(p, sp) }),
        header: { height, timestamp: 0, aggregateCommit: { height: 0 } },
      };
    },
  };
};

/** Klayr Core's mainchain over a genesis block (the devnet's unless given), with the devnet's config and module overrides. */
export const runKlayrGenesis = async (
  blob: Buffer = readFileSync(devnetFile('genesis_block.blob')),
  moduleOverrides: Record<string, Record<string, unknown>> = {},
): Promise<KlayrGenesisResult> => {
  const config = JSON.parse(readFileSync(devnetFile('config.json'), 'utf8'));
  for (const [name, values] of Object.entries(moduleOverrides))
    config.modules[name] = { ...config.modules[name], ...values };
  return runKlayrApplicationGenesis(config, blob, true);
};
/* eslint-enable @typescript-eslint/no-explicit-any */
