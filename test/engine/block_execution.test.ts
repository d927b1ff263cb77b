import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Block, BlockHeader } from '../../src/lib/chain/block.js';
import { computeStorePrefix } from '../../src/lib/state/keys.js';
import { addressFromPublicKey } from '../../src/lib/crypto/address.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { computeMinFee, signTransaction } from '../../src/lib/transaction/index.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { codec } from '../../src/lib/codec/index.js';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import { StateMachine } from '../../src/engine/state_machine/state_machine.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { randomAssetSchema } from '../../src/modules/random/method.js';
import { transferParamsSchema } from '../../src/modules/token/transfer.js';
import { getValidatorsParams } from '../../src/modules/validators/method.js';
import { SubStore } from '../../src/engine/state/substore.js';
import { devnetChainID, devnetGenesis, klayrDevnetGenesis } from '../helpers/genesis_compare.js';
import { devValidators } from '../helpers/devnet.js';
import { klayrExecuteBlock } from '../helpers/klayr_block.js';

const LEGACY = computeStorePrefix('legacy').toString('hex');
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');
const BLOCK_TIME = 7;

/** Hash onion per generator: reveal i is the preimage of reveal i-1 (LIP 0022). */
const onion = (length: number): Buffer[] => {
  const hashes: Buffer[] = [randomBytes(16)];
  for (let i = 1; i < length; i++) hashes.unshift(sha256(hashes[0]!).subarray(0, 16));
  return hashes;
};

describe('block execution: Kestrel\'s modules against klayr-framework\'s, block by block', () => {
  it('same state entries, events and execution results over 162 blocks with transfers, failures, missed slots, round ends and the first validator election', async () => {
    const config = loadConfig();
    const machine = new StateMachine(applicationModules(config));
    const genesis = devnetGenesis();
    const state = new BlockState(EMPTY_STATE);
    executeGenesis(machine.modules, genesis, devnetChainID, state);
    const oracle = await klayrDevnetGenesis();

    const keys = devValidators();
    const sender = keys[0]!;
    const senderKey = Buffer.from(sender.privateKey, 'hex');
    const senderPublicKey = Buffer.from(sender.publicKey, 'hex');
    const onions = new Map<string, { hashes: Buffer[]; used: number }>();
    let nonce = 0n;
    let previous: BlockHeader = genesis.header;
    let timestamp = genesis.header.timestamp;
    let failures = 0;
    const elections: number[] = [];

    const transfer = (recipientAddress: Buffer, amount: bigint, extraFee = 0n): TransactionObject => {
      const base = { module: 'token', command: 'transfer', nonce: nonce++, senderPublicKey, params: codec.encode(transferParamsSchema, { tokenID: TOKEN_ID, amount, recipientAddress, data: '' }) };
      return signTransaction({ ...base, fee: computeMinFee(base) + extraFee, signatures: [] }, devnetChainID, senderKey);
    };

    for (let height = 1; height <= 162; height++) {
      timestamp += BLOCK_TIME * (height % 17 === 0 ? 3 : 1); // some missed slots
      const validators = getValidatorsParams({ store: (p, s) => new SubStore(state, p, s) }).validators;
      const generatorAddress = validators[Math.floor(timestamp / BLOCK_TIME) % validators.length]!.address;
      const g = onions.get(generatorAddress.toString('hex')) ?? { hashes: onion(10), used: 0 };
      onions.set(generatorAddress.toString('hex'), g);
      const seedReveal = height % 13 === 0 ? randomBytes(16) : g.hashes[g.used++]!;
      const transactions: TransactionObject[] = [];
      if (height % 3 === 1) transactions.push(transfer(addressFromPublicKey(Buffer.from(keys[height % 50]!.publicKey, 'hex')), 100000000n * BigInt(height)));
      if (height % 10 === 2) transactions.push(transfer(randomBytes(20), 1000n, 5000000n)); // new account, pays its initialization
      if (height % 10 === 5) transactions.push(transfer(randomBytes(20), 1000n)); // new account, fee too small to initialize it: fails
      if (height === 41) {
        // passes verification (amount <= balance) but the locked fee leaves too little: fails at execution
        const { availableBalance } = await oracle.modules.token.method.getAvailableBalance(oracle.endpointContext({}).getImmutableMethodContext(), addressFromPublicKey(senderPublicKey), TOKEN_ID).then((b: bigint) => ({ availableBalance: b }));
        transactions.push(transfer(addressFromPublicKey(Buffer.from(keys[7]!.publicKey, 'hex')), availableBalance));
      }
      const header: BlockHeader = {
        ...previous,
        height,
        timestamp,
        generatorAddress,
        impliesMaxPrevotes: height % 11 !== 0,
        previousBlockID: Buffer.alloc(32),
      };
      const block: Block = { header, transactions, assets: [{ module: 'random', data: codec.encode(randomAssetSchema, { seedReveal }) }] };

      const ours = machine.executeBlock(block, devnetChainID, state);
      const theirs = await klayrExecuteBlock(oracle, block);
      assert.deepEqual(ours.results, theirs.results, `execution results at height ${height}`);
      failures += ours.results.filter((r) => r === 0).length;
      assert.deepEqual(
        ours.events.map((e) => ({ ...e })),
        theirs.events.map((e) => ({ module: e.module, name: e.name, data: e.data, topics: e.topics, height: e.height, index: e.index })),
        `events at height ${height}`,
      );
      assert.equal(ours.nextValidators?.validators.length ?? 0, theirs.nextValidators.length, `next validators at height ${height}`);
      if (ours.nextValidators !== undefined) elections.push(height);
      const mine = new Map(state.overlay.changes().filter((c) => c.value !== undefined && !c.key.subarray(0, 4).toString('hex').startsWith(LEGACY)).map((c) => [c.key.toString('hex'), c.value!.toString('hex')]));
      const klayr = new Map([...oracle.store.data].map(([k, v]) => [k, v.toString('hex')]));
      const diff = [...new Set([...mine.keys(), ...klayr.keys()])].filter((k) => mine.get(k) !== klayr.get(k));
      assert.deepEqual(diff.slice(0, 5).map((k) => ({ key: k, ours: mine.get(k), klayr: klayr.get(k) })), [], `state at height ${height}`);
      previous = header;
    }
    assert.deepEqual(elections, [159]);
    assert.ok(failures >= 10, `some transactions failed (${failures})`);
  });
});
