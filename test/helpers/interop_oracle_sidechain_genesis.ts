// A sidechain for the interoperability differential: the devnet genesis block under another chain
// ID of the devnet's network, with an empty interoperability asset (a sidechain that has not
// registered the mainchain yet), executed by klayr-framework's modules with the sidechain
// interoperability module, wired as Klayr's application wires a sidechain.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Block } from '../../src/lib/chain/block.js';
import { encodeBlock } from '../../src/lib/chain/block.js';
import { codec } from '../../src/lib/codec/index.js';
import { genesisInteroperabilitySchema } from '../../src/modules/interoperability/schemas.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import type { GenesisTokenStore } from '../../src/modules/token/schemas.js';
import { devnetFile } from './devnet.js';
import { devnetGenesis } from './genesis_compare.js';
import { klayrChain } from './klayr.js';
import { MemoryStateReadWriter } from './klayr_genesis.js';
import type { KlayrGenesisResult } from './klayr_genesis.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);
const silent: any = { info: () => undefined, debug: () => undefined, error: () => undefined, warn: () => undefined, trace: () => undefined, fatal: () => undefined, level: () => 'none' };
silent.child = () => silent;

/**
 * The devnet genesis block as a sidechain's: an empty interoperability asset (before it registers
 * the mainchain), and KLY, the mainchain's token, held by the same accounts but with no supply here
 * (a chain keeps the supply of its own tokens only).
 */
export const sidechainGenesisBlock = (): Block => {
  const block = devnetGenesis();
  const interop = codec.encode(genesisInteroperabilitySchema, { ownChainName: '', ownChainNonce: 0n, chainInfos: [], terminatedStateAccounts: [], terminatedOutboxAccounts: [] });
  const tokenAsset = codec.decode<GenesisTokenStore>(genesisTokenStoreSchema, block.assets.find((a) => a.module === 'token')!.data);
  const token = codec.encode(genesisTokenStoreSchema, { ...tokenAsset, supplySubstore: [] });
  return { ...block, assets: block.assets.map((a) => (a.module === 'interoperability' ? { ...a, data: interop } : a.module === 'token' ? { ...a, data: token } : a)) };
};

export const runKlayrSidechainGenesis = async (chainID: Buffer, block: Block = sidechainGenesisBlock()): Promise<KlayrGenesisResult> => {
  const config = JSON.parse(readFileSync(devnetFile('config.json'), 'utf8'));
  config.genesis.chainID = chainID.toString('hex');
  const auth = new (fw('modules/auth').AuthModule)();
  const token = new (fw('modules/token').TokenModule)();
  const fee = new (fw('modules/fee').FeeModule)();
  const dynamicReward = new (fw('modules/dynamic_reward').DynamicRewardModule)();
  const random = new (fw('modules/random').RandomModule)();
  const validators = new (fw('modules/validators').ValidatorsModule)();
  const pos = new (fw('modules/pos').PoSModule)();
  const interop = new (fw('modules/interoperability').SidechainInteroperabilityModule)();
  interop.addDependencies(validators.method, token.method);
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
  const genesisConfig = { ...fw('schema/application_config_schema').applicationConfigSchema.default.genesis, ...config.genesis };
  await machine.init(silent, genesisConfig, config.modules);

  const klayrBlock = klayrChain.Block.fromBytes(encodeBlock(block));
  const store = new MemoryStateReadWriter();
  const ctx = new GenesisBlockContext({ eventQueue: new EventQueue(klayrBlock.header.height), header: klayrBlock.header, logger: silent, stateStore: new PrefixedStateReadWriter(store), assets: klayrBlock.assets, chainID });
  await machine.executeGenesisBlock(ctx);
  return {
    entries: [...store.data].map(([k, value]) => ({ key: Buffer.from(k, 'hex'), value })).sort((a, b) => Buffer.compare(a.key, b.key)),
    events: ctx.eventQueue.getEvents().map((e: any, index: number) => ({ ...e.toObject(), index })),
    nextValidators: ctx.nextValidators.validators,
    certificateThreshold: ctx.nextValidators.certificateThreshold,
    precommitThreshold: ctx.nextValidators.precommitThreshold,
    modules: { auth, token, fee, dynamicReward, random, validators, pos, interoperability: interop },
    machine,
    store,
    chainID,
    endpointContext: (params) => {
      const prefixed = new PrefixedStateReadWriter(store);
      return { params, chainID, logger: silent, getStore: (p: Buffer, sp: Buffer) => prefixed.getStore(p, sp), getImmutableMethodContext: () => ({ getStore: (p: Buffer, sp: Buffer) => prefixed.getStore(p, sp) }), header: { height: 0, timestamp: 0, aggregateCommit: { height: 0 } } };
    },
  };
};
/* eslint-enable @typescript-eslint/no-explicit-any */
