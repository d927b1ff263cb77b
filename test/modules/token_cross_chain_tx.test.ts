import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BlockHeader } from '../../src/lib/chain/block.js';
import { compile } from '../../src/lib/codec/index.js';
import { addressFromPublicKey } from '../../src/lib/crypto/index.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import type { CrossChainTransferParams } from '../../src/modules/token/cross_chain/schemas.js';
import { crossChainTransferParamsSchema } from '../../src/modules/token/cross_chain/schemas.js';
import { runKestrelBlock, runKlayrBlock } from '../helpers/klayr_token_interop.js';
import { Rng } from '../helpers/random.js';
import type { World } from '../helpers/token_world.js';
import { amountOf, hex, KLY, key, MAINCHAIN, OTHER, PARTNER, randomWorld, userCodec } from '../helpers/token_world.js';

const paramsCodec = compile<CrossChainTransferParams>(crossChainTransferParamsSchema);

const headerAt = (rng: Rng, generatorAddress: Buffer): BlockHeader => ({
  version: 2,
  timestamp: 1700000000 + rng.int(100000),
  height: 10 + rng.int(1000),
  previousBlockID: rng.bytes(32),
  generatorAddress,
  transactionRoot: rng.bytes(32),
  assetRoot: rng.bytes(32),
  eventRoot: rng.bytes(32),
  stateRoot: rng.bytes(32),
  maxHeightPrevoted: 0,
  maxHeightGenerated: 0,
  impliesMaxPrevotes: true,
  validatorsHash: rng.bytes(32),
  aggregateCommit: { height: 0, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
  signature: rng.bytes(64),
});

/** A transferCrossChain transaction of a sender with fee token and transfer token accounts (sometimes short of either). */
const transferCrossChainBlock = (rng: Rng) => {
  const senderPublicKey = rng.bytes(32);
  const sender = addressFromPublicKey(senderPublicKey);
  const world: World = randomWorld(rng, { senderAddress: sender });
  const { chainID, messageFeeTokenID } = world.setup;
  const feeTokenID = chainID.equals(MAINCHAIN) ? KLY : Buffer.concat([chainID, hex('00000000')]);
  const fee = rng.pick([300000n, 5000000n, 7300000n, 12500000n, 30000000n]);
  const tokenID = rng.pick(world.tokens);
  const amount = amountOf(rng);
  const messageFee = rng.pick([0n, 1000n, 250000n]);
  const balances = new Map<string, bigint>();
  const add = (t: Buffer, v: bigint) => balances.set(t.toString('hex'), (balances.get(t.toString('hex')) ?? 0n) + v);
  add(feeTokenID, rng.next() < 0.9 ? fee : fee / 2n);
  add(tokenID, rng.next() < 0.85 ? amount : amount / 2n);
  add(messageFeeTokenID, rng.next() < 0.85 ? messageFee : 0n);
  const entries = world.setup.entries.filter((e) => !e.key.subarray(6, 26).equals(sender));
  for (const [t, v] of balances)
    entries.push({
      key: key(0, Buffer.concat([sender, hex(t)])),
      value: userCodec.encode({ availableBalance: v + BigInt(rng.int(3)), lockedBalances: [] }),
    });
  const params = paramsCodec.encode({
    tokenID,
    amount,
    receivingChainID: rng.pick([PARTNER, PARTNER, OTHER]),
    recipientAddress: rng.bytes(20),
    data: rng.pick(['', 'cross-chain']),
    messageFee,
    messageFeeTokenID: rng.next() < 0.95 ? messageFeeTokenID : feeTokenID,
  });
  const transaction: TransactionObject = {
    module: 'token',
    command: 'transferCrossChain',
    nonce: BigInt(rng.int(5)),
    fee,
    senderPublicKey,
    params,
    signatures: [rng.bytes(64)],
  };
  return {
    setup: { ...world.setup, entries, contextStore: [] },
    header: headerAt(rng, rng.next() < 0.5 ? rng.pick(world.addresses) : rng.bytes(20)),
    transaction,
  };
};

describe("token:transferCrossChain in a block, against klayr-framework 0.12.3's StateMachine with its token and fee modules", () => {
  it('verifies and executes as Klayr: results, state, events with their topics, and the CCMs sent', async () => {
    const rng = new Rng(3303);
    const seen = new Map<string, number>();
    for (let i = 0; i < 120; i++) {
      const { setup, header, transaction } = transferCrossChainBlock(rng);
      const klayr = await runKlayrBlock(setup, header, [transaction]);
      const ours = runKestrelBlock(setup, header, [transaction]);
      assert.deepEqual(ours, klayr, `block ${i}`);
      const outcome = klayr.results[0]!.replace(
        /kly\w+ balance \d+ for [0-9a-f]+ is not sufficient for \d+\./,
        'insufficient balance',
      );
      seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
    }
    // executed (with escrow accounts created out of the fee), failed (out of fee), and refused by verify
    for (const expected of [
      'ok',
      'fail',
      'verify: insufficient balance',
      'verify: Token must be native to either the sending or the receiving chain.',
    ]) {
      assert.ok((seen.get(expected) ?? 0) > 0, `${expected} in ${[...seen].join(' | ')}`);
    }
  });
});

describe('token:transferCrossChain params outside the schema', () => {
  it('are refused by both, changing nothing: data over 64 characters, a 7-byte token ID, a 5-byte chain ID, a malformed recipient', async () => {
    const rng = new Rng(3304);
    const { setup, header, transaction } = transferCrossChainBlock(rng);
    const valid = paramsCodec.decode(transaction.params);
    const encode = (change: Record<string, unknown>) =>
      compile({
        ...crossChainTransferParamsSchema,
        properties: {
          ...crossChainTransferParamsSchema.properties,
          tokenID: { dataType: 'bytes', fieldNumber: 1 },
          receivingChainID: { dataType: 'bytes', fieldNumber: 3 },
          recipientAddress: { dataType: 'bytes', fieldNumber: 4 },
          data: { dataType: 'string', fieldNumber: 5 },
        },
      }).encode({ ...valid, ...change });
    for (const change of [
      { data: 'x'.repeat(65) },
      { tokenID: valid.tokenID.subarray(0, 7) },
      { receivingChainID: Buffer.concat([PARTNER, hex('00')]) },
      { recipientAddress: rng.bytes(19) },
    ]) {
      const tx = { ...transaction, params: encode(change) };
      const klayr = await runKlayrBlock(setup, header, [tx]);
      const ours = runKestrelBlock(setup, header, [tx]);
      assert.match(klayr.results[0]!, /^verify: /, Object.keys(change)[0]);
      assert.match(ours.results[0]!, /^verify: /, Object.keys(change)[0]);
      assert.deepEqual({ ...ours, results: [] }, { ...klayr, results: [] });
      assert.deepEqual(ours.events, []);
    }
  });
});
