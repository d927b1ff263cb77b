// Oracle for the token and fee modules' cross-chain parts: klayr-framework's TokenModule and
// FeeModule and Kestrel's, built with the same config and given the same kind of fake
// interoperability method, run the same operations (or the same block, through each side's
// StateMachine) over the same state; what each left (state entries, events, the noRevert events
// kept after a rollback, context store, send calls, each operation's result) is returned for comparison.
import { createRequire } from 'node:module';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import type { CCMessage, InteroperabilityMethod } from '../../src/engine/state_machine/cross_chain.js';
import { EventQueue } from '../../src/engine/state_machine/event_queue.js';
import type { MethodContext } from '../../src/engine/state_machine/module.js';
import { StateMachine } from '../../src/engine/state_machine/state_machine.js';
import type { BlockHeader } from '../../src/lib/chain/block.js';
import { encodeBlockHeader } from '../../src/lib/chain/block.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { encodeTransaction } from '../../src/lib/transaction/index.js';
import { feeConfig } from '../../src/modules/fee/config.js';
import { FeeModule } from '../../src/modules/fee/index.js';
import { tokenConfig } from '../../src/modules/token/config.js';
import { TokenModule } from '../../src/modules/token/index.js';
import { TokenMethod } from '../../src/modules/token/method.js';
import { klayrChain, klayrCodec, klayrCrypto } from './klayr.js';
import { MemoryStateReadWriter } from './klayr_genesis.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);
const { NotFoundError } = require('@liskhq/lisk-db') as { NotFoundError: new (m: string) => Error };

export interface InteropSetup {
  chainID: Buffer;
  userAccountInitializationFee: bigint;
  escrowAccountInitializationFee: bigint;
  feePoolAddress?: Buffer;
  /** What the fake interoperability method answers for any chain or CCM. */
  messageFeeTokenID: Buffer;
  /** Full state keys and values both sides start from. */
  entries: { key: Buffer; value: Buffer }[];
  contextStore: [string, unknown][];
  height: number;
  timestamp: number;
  /** The transaction (a transferCrossChain, or the CCU carrying a CCM) and its sender (the relayer). */
  senderAddress: Buffer;
  transactionFee: bigint;
}

export interface Send {
  sendingAddress: string;
  module: string;
  crossChainCommand: string;
  receivingChainID: string;
  fee: string;
  params: string;
  timestamp: string;
}

export interface Outcome {
  /** Per operation: the error's message ('NotFoundError' for Klayr's missing-store-entry error), a getter's answer (`= …`), or 'ok'. */
  results: string[];
  state: string[];
  events: string[];
  /** The events a rollback to the start keeps (noRevert). */
  keptEvents: string[];
  contextStore: string[];
  sends: Send[];
}

/** One operation, written for either side: `side.run` calls into that side's module. */
export type Operation =
  | { kind: 'transferCrossChain'; phase: 'verify' | 'execute'; params: Record<string, unknown> }
  | { kind: 'ccCommand'; phase: 'verify' | 'execute'; ccm: CCMessage }
  | {
      kind: 'hook';
      module: 'token' | 'fee';
      hook:
        | 'verifyCrossChainMessage'
        | 'beforeCrossChainCommandExecute'
        | 'afterCrossChainCommandExecute'
        | 'beforeCrossChainMessageForwarding';
      ccm: CCMessage;
      ccmFailed?: boolean;
    }
  | { kind: 'recover'; terminatedChainID: Buffer; substorePrefix: Buffer; storeKey: Buffer; storeValue: Buffer }
  | { kind: 'payMessageFee'; payFromAddress: Buffer; receivingChainID: Buffer; fee: bigint }
  | { kind: 'initializeEscrowAccount'; escrowChainID: Buffer; tokenID: Buffer }
  | { kind: 'getEscrowedAmount'; escrowChainID: Buffer; tokenID: Buffer }
  | { kind: 'isTokenSupported'; tokenID: Buffer };

const TX_TOPIC = Buffer.alloc(32, 7);
/** A CCM's events get their own topic; its hooks' method context logs to the transaction's queue. */
const CCM_TOPIC = Buffer.alloc(33, 5);
const hexEntry = ({ key, value }: { key: Buffer; value: Buffer }) => `${key.toString('hex')}=${value.toString('hex')}`;
const eventText = (e: { module: string; name: string; data: Buffer; topics: Buffer[] }) =>
  `${e.module}:${e.name}:${e.data.toString('hex')}:${e.topics.map((t) => t.toString('hex')).join(',')}`;
const contextText = (store: Map<string, unknown>) => [...store].map(([k, v]) => `${k}=${String(v)}`).sort();

const recordSend = (sends: Send[], args: unknown[]): void => {
  const [sendingAddress, module, crossChainCommand, receivingChainID, fee, params, timestamp] = args as [
    Buffer,
    string,
    string,
    Buffer,
    bigint,
    Buffer,
    number | undefined,
  ];
  sends.push({
    sendingAddress: sendingAddress.toString('hex'),
    module,
    crossChainCommand,
    receivingChainID: receivingChainID.toString('hex'),
    fee: fee.toString(),
    params: params.toString('hex'),
    timestamp: String(timestamp),
  });
};

const notUsed = (name: string) => (): never => {
  throw new Error(`${name} is not used by the token and fee modules`);
};

/** The fake interoperability method of one side: records sends, pays their fee as Klayr's send does (tokenMethod.payMessageFee), answers one message fee token. */
const fakeInterop = (
  setup: InteropSetup,
  sends: Send[],
  payMessageFee: (ctx: any, from: Buffer, to: Buffer, fee: bigint) => unknown,
) => ({
  send: (ctx: any, ...args: unknown[]) => {
    recordSend(sends, args);
    const [sendingAddress, , , receivingChainID, fee] = args as [Buffer, string, string, Buffer, bigint];
    return payMessageFee(ctx, sendingAddress, receivingChainID, fee);
  },
  getMessageFeeTokenID: () => setup.messageFeeTokenID,
  getMessageFeeTokenIDFromCCM: () => setup.messageFeeTokenID,
  error: notUsed('error'),
  terminateChain: notUsed('terminateChain'),
  getMinReturnFeePerByte: notUsed('getMinReturnFeePerByte'),
  getOwnChainAccount: notUsed('getOwnChainAccount'),
  hasChainAccount: notUsed('hasChainAccount'),
  isTerminated: notUsed('isTerminated'),
});

const klayr32 = (address: Buffer): string => klayrCrypto.address.getKlayr32AddressFromAddress(address);

/** modules.token and modules.fee as both sides read them. */
const moduleConfigs = (setup: InteropSetup) => ({
  token: {
    userAccountInitializationFee: setup.userAccountInitializationFee.toString(),
    escrowAccountInitializationFee: setup.escrowAccountInitializationFee.toString(),
  },
  fee: setup.feePoolAddress === undefined ? {} : { feePoolAddress: klayr32(setup.feePoolAddress) },
});

/** Runs the operations, one after the other on the same state, with klayr-framework 0.12.3's TokenModule and FeeModule. */
export const runKlayr = async (setup: InteropSetup, ops: readonly Operation[]): Promise<Outcome> => {
  const token = new (fw('modules/token').TokenModule)();
  const fee = new (fw('modules/fee').FeeModule)();
  const sends: Send[] = [];
  const interop = fakeInterop(setup, sends, (ctx, from, to, amount) =>
    token.method.payMessageFee(ctx, from, to, amount),
  );
  token.addDependencies(interop, fee.method);
  fee.addDependencies(token.method, interop);
  const genesisConfig = { chainID: setup.chainID.toString('hex') };
  const configs = moduleConfigs(setup);
  await token.init({ moduleConfig: configs.token, genesisConfig });
  await fee.init({ moduleConfig: configs.fee, genesisConfig });

  const { EventQueue: KlayrEventQueue, createMethodContext } = fw('state_machine');
  const { PrefixedStateReadWriter } = fw('state_machine/prefixed_state_read_writer');
  const db = new MemoryStateReadWriter();
  for (const { key, value } of setup.entries) await db.set(key, value);
  const stateStore = new PrefixedStateReadWriter(db);
  const root = new KlayrEventQueue(setup.height);
  const eventQueue = root.getChildQueue(TX_TOPIC);
  const contextStore = new Map<string, unknown>(setup.contextStore);
  const methodContext = createMethodContext({ stateStore, eventQueue, contextStore });
  const header = { height: setup.height, timestamp: setup.timestamp };
  const transaction = { senderAddress: setup.senderAddress, fee: setup.transactionFee, params: Buffer.alloc(0) };
  const base = {
    logger: undefined,
    chainID: setup.chainID,
    header,
    transaction,
    getMethodContext: () => methodContext,
    getStore: (p: Buffer, s: Buffer) => stateStore.getStore(p, s),
    eventQueue,
    contextStore,
    stateStore,
  };
  const ccmBase = { ...base, eventQueue: eventQueue.getChildQueue(CCM_TOPIC) };
  const ccTransfer = token.crossChainCommand[0];
  const results: string[] = [];
  for (const op of ops) {
    let result = 'ok';
    try {
      switch (op.kind) {
        case 'transferCrossChain': {
          const command = token.commands.find((c: { name: string }) => c.name === 'transferCrossChain');
          if (op.phase === 'verify') {
            const verified = await command.verify({ ...base, params: op.params });
            if (verified.status !== 1) throw verified.error;
          } else await command.execute({ ...base, params: op.params });
          break;
        }
        case 'ccCommand': {
          const ctx = { ...ccmBase, ccm: op.ccm, params: klayrCodec.codec.decode(ccTransfer.schema, op.ccm.params) };
          if (op.phase === 'verify') await ccTransfer.verify(ctx);
          else await ccTransfer.execute(ctx);
          break;
        }
        case 'hook': {
          const method = op.module === 'token' ? token.crossChainMethod : fee.crossChainMethod;
          const hook = method[op.hook];
          if (typeof hook !== 'function') throw new Error(`no ${op.module} ${op.hook}`);
          await hook.call(method, { ...ccmBase, ccm: op.ccm, ccmFailed: op.ccmFailed ?? false });
          break;
        }
        case 'recover':
          await token.crossChainMethod.recover({
            ...base,
            module: 'token',
            terminatedChainID: op.terminatedChainID,
            substorePrefix: op.substorePrefix,
            storeKey: op.storeKey,
            storeValue: op.storeValue,
          });
          break;
        case 'payMessageFee':
          await token.method.payMessageFee(methodContext, op.payFromAddress, op.receivingChainID, op.fee);
          break;
        case 'initializeEscrowAccount':
          await token.method.initializeEscrowAccount(methodContext, op.escrowChainID, op.tokenID);
          break;
        case 'getEscrowedAmount':
          result = `= ${String(await token.method.getEscrowedAmount(methodContext, op.escrowChainID, op.tokenID))}`;
          break;
        case 'isTokenSupported':
          result = `= ${String(await token.method.isTokenSupported(methodContext, op.tokenID))}`;
          break;
      }
    } catch (e) {
      result = e instanceof NotFoundError ? 'NotFoundError' : (e as Error).message;
    }
    results.push(result);
  }
  const state = [...db.data].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v.toString('hex')}`);
  const events = root.getEvents().map((e: any) => eventText(e.toObject()));
  root.restoreSnapshot(0);
  return {
    results,
    state,
    events,
    keptEvents: root.getEvents().map((e: any) => eventText(e.toObject())),
    contextStore: contextText(contextStore),
    sends,
  };
};

/** Kestrel's TokenModule and FeeModule on the setup's state, with a fake interoperability method recording its sends. */
const kestrelWorld = (setup: InteropSetup) => {
  const method = new TokenMethod(tokenConfig(setup.chainID, moduleConfigs(setup).token));
  const token = new TokenModule(method);
  const fee = new FeeModule(feeConfig(setup.chainID, moduleConfigs(setup).fee), method);
  const sends: Send[] = [];
  const interop = fakeInterop(setup, sends, (ctx, from, to, amount) =>
    method.payMessageFee(ctx, from, to, amount),
  ) as unknown as InteroperabilityMethod;
  token.setInteroperabilityMethod(interop);
  fee.setInteroperabilityMethod(interop);
  const state = new BlockState(EMPTY_STATE);
  for (const { key, value } of setup.entries) state.set(key, value);
  return { method, token, fee, sends, state };
};

/** Runs the operations, one after the other on the same state, with Kestrel's TokenModule and FeeModule. */
export const runKestrel = (
  setup: InteropSetup,
  ops: readonly Operation[],
  missingEntry: (message: string) => boolean,
): Outcome => {
  const { method, token, fee, sends, state } = kestrelWorld(setup);
  const root = new EventQueue(setup.height);
  const events = root.childQueue(TX_TOPIC);
  const contextStore = new Map<string, unknown>(setup.contextStore);
  const methodContext: MethodContext = { events, contextStore, store: (p, s) => new SubStore(state, p, s) };
  const header = { height: setup.height, timestamp: setup.timestamp };
  const transaction = { senderAddress: setup.senderAddress, fee: setup.transactionFee, params: Buffer.alloc(0) };
  const base = { ...methodContext, chainID: setup.chainID, state, header, transaction };
  const ccmBase = { ...base, events: events.childQueue(CCM_TOPIC), getMethodContext: () => methodContext };
  const eventsSnapshot = root.snapshot();
  const results: string[] = [];
  for (const op of ops) {
    let result = 'ok';
    try {
      switch (op.kind) {
        case 'transferCrossChain': {
          const command = token.commands.find((c) => c.name === 'transferCrossChain')!;
          const ctx = {
            ...base,
            senderAddress: setup.senderAddress,
            transaction: { ...transaction, fee: setup.transactionFee },
            params: op.params,
          } as never;
          if (op.phase === 'verify') command.verify!(ctx);
          else command.execute(ctx);
          break;
        }
        case 'ccCommand': {
          const command = token.crossChainCommands[0]!;
          const ctx = { ...ccmBase, ccm: op.ccm, params: undefined as never };
          if (op.phase === 'verify') command.verify!(ctx);
          else command.execute(ctx);
          break;
        }
        case 'hook': {
          const crossChainMethod = op.module === 'token' ? token.crossChainMethod! : fee.crossChainMethod!;
          const hook = crossChainMethod[op.hook];
          if (hook === undefined) throw new Error(`no ${op.module} ${op.hook}`);
          hook({ ...ccmBase, ccm: op.ccm, ccmFailed: op.ccmFailed ?? false });
          break;
        }
        case 'recover':
          token.crossChainMethod!.recover!({
            ...methodContext,
            chainID: setup.chainID,
            state,
            module: 'token',
            terminatedChainID: op.terminatedChainID,
            substorePrefix: op.substorePrefix,
            storeKey: op.storeKey,
            storeValue: op.storeValue,
          });
          break;
        case 'payMessageFee':
          method.payMessageFee(methodContext, op.payFromAddress, op.receivingChainID, op.fee);
          break;
        case 'initializeEscrowAccount':
          method.initializeEscrowAccount(methodContext, op.escrowChainID, op.tokenID);
          break;
        case 'getEscrowedAmount':
          result = `= ${String(method.getEscrowedAmount(methodContext, op.escrowChainID, op.tokenID))}`;
          break;
        case 'isTokenSupported':
          result = `= ${String(method.isTokenSupported(methodContext, op.tokenID))}`;
          break;
      }
    } catch (e) {
      const message = (e as Error).message;
      result = missingEntry(message) ? 'NotFoundError' : message;
    }
    results.push(result);
  }
  const stateEntries = state.iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) }).map(hexEntry);
  const eventList = root.getEvents().map(eventText);
  root.restoreSnapshot(eventsSnapshot);
  return {
    results,
    state: stateEntries,
    events: eventList,
    keptEvents: root.getEvents().map(eventText),
    contextStore: contextText(contextStore),
    sends,
  };
};

/** klayr-framework's TokenModule (wired as runKlayr wires it) and a context factory for its endpoint over the setup's state. */
export const klayrTokenModule = async (
  setup: InteropSetup,
): Promise<{ module: any; endpointContext: (params: Record<string, unknown>) => any }> => {
  const token = new (fw('modules/token').TokenModule)();
  const fee = new (fw('modules/fee').FeeModule)();
  const interop = fakeInterop(setup, [], () => undefined);
  token.addDependencies(interop, fee.method);
  await token.init({
    moduleConfig: moduleConfigs(setup).token,
    genesisConfig: { chainID: setup.chainID.toString('hex') },
  });
  const { PrefixedStateReadWriter } = fw('state_machine/prefixed_state_read_writer');
  const db = new MemoryStateReadWriter();
  for (const { key, value } of setup.entries) await db.set(key, value);
  const stateStore = new PrefixedStateReadWriter(db);
  return {
    module: token,
    endpointContext: (params) => ({
      params,
      chainID: setup.chainID,
      getStore: (p: Buffer, s: Buffer) => stateStore.getStore(p, s),
      getImmutableMethodContext: () => ({ getStore: (p: Buffer, s: Buffer) => stateStore.getStore(p, s) }),
    }),
  };
};

export interface BlockOutcome {
  /** 'ok' / 'fail' per transaction (its command failed), or why the block was refused. */
  results: string[];
  state: string[];
  events: string[];
  sends: Send[];
}

const silent: any = {
  info: () => undefined,
  debug: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  trace: () => undefined,
  fatal: () => undefined,
};
silent.child = () => silent;

const RESULT_NAMES: Record<number, string> = { [-1]: 'invalid', 0: 'fail', 1: 'ok' };

/** A block of transactions executed by klayr-framework's StateMachine with its TokenModule and FeeModule (as klayr_block.ts drives Klayr's consensus). */
export const runKlayrBlock = async (
  setup: InteropSetup,
  header: BlockHeader,
  transactions: readonly TransactionObject[],
): Promise<BlockOutcome> => {
  const token = new (fw('modules/token').TokenModule)();
  const fee = new (fw('modules/fee').FeeModule)();
  const sends: Send[] = [];
  const interop = fakeInterop(setup, sends, (ctx, from, to, amount) =>
    token.method.payMessageFee(ctx, from, to, amount),
  );
  token.addDependencies(interop, fee.method);
  fee.addDependencies(token.method, interop);
  const { StateMachine, BlockContext, TransactionContext, EventQueue: KlayrEventQueue } = fw('state_machine');
  const { PrefixedStateReadWriter } = fw('state_machine/prefixed_state_read_writer');
  const machine = new StateMachine();
  machine.registerModule(token);
  machine.registerModule(fee);
  await machine.init(
    silent,
    {
      ...fw('schema/application_config_schema').applicationConfigSchema.default.genesis,
      chainID: setup.chainID.toString('hex'),
    },
    moduleConfigs(setup),
  );
  const db = new MemoryStateReadWriter();
  for (const { key, value } of setup.entries) await db.set(key, value);
  const stateStore = new PrefixedStateReadWriter(db);
  const klayrHeader = klayrChain.BlockHeader.fromBytes(encodeBlockHeader(header));
  const assets = new klayrChain.BlockAssets([]);
  const contextStore = new Map();
  const queue = new KlayrEventQueue(header.height);
  const blockCtx = (txs: unknown[] = []) =>
    new BlockContext({
      header: klayrHeader,
      logger: silent,
      stateStore,
      contextStore,
      chainID: setup.chainID,
      assets,
      eventQueue: queue,
      transactions: txs,
    });
  const results: string[] = [];
  try {
    await machine.verifyAssets(blockCtx());
    await machine.beforeTransactionsExecute(blockCtx());
    const txs = transactions.map((tx) => klayrChain.Transaction.fromBytes(encodeTransaction(tx)));
    for (const transaction of txs) {
      const verifyCtx = new TransactionContext({
        eventQueue: new KlayrEventQueue(0),
        logger: silent,
        transaction,
        stateStore,
        contextStore,
        chainID: setup.chainID,
        header: klayrHeader,
      });
      const verified = await machine.verifyTransaction(verifyCtx, false);
      if (verified.status !== 1) throw new Error(`verify: ${verified.error?.message}`);
      const execCtx = new TransactionContext({
        eventQueue: queue,
        logger: silent,
        transaction,
        stateStore,
        contextStore,
        chainID: setup.chainID,
        assets,
        header: klayrHeader,
      });
      const result = await machine.executeTransaction(execCtx);
      if (result === -1) throw new Error('invalid');
      results.push(RESULT_NAMES[result]!);
    }
    await machine.afterExecuteBlock(blockCtx(txs));
  } catch (e) {
    results.push((e as Error).message);
  }
  const state = [...db.data].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v.toString('hex')}`);
  return { results, state, events: queue.getEvents().map((e: any) => eventText(e.toObject())), sends };
};

/** The same block executed by Kestrel's StateMachine with its TokenModule and FeeModule. */
export const runKestrelBlock = (
  setup: InteropSetup,
  header: BlockHeader,
  transactions: readonly TransactionObject[],
): BlockOutcome => {
  const { token, fee, sends, state } = kestrelWorld(setup);
  const machine = new StateMachine([token, fee]);
  const results: string[] = [];
  let events: string[] = [];
  try {
    const execution = machine.executeBlock({ header, assets: [], transactions }, setup.chainID, state);
    results.push(...execution.results.map((r) => RESULT_NAMES[r]!));
    events = execution.events.map(eventText);
  } catch (e) {
    const message = (e as Error).message;
    const refused = /^Failed to verify transaction [0-9a-f]+\. ([\s\S]*)$/.exec(message);
    results.push(
      refused !== null
        ? `verify: ${refused[1]!}`
        : /^Failed to execute transaction/.test(message)
          ? 'invalid'
          : message,
    );
  }
  return {
    results,
    state: state.iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) }).map(hexEntry),
    events,
    sends,
  };
};
/* eslint-enable @typescript-eslint/no-explicit-any */
