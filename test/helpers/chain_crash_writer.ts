// Child process for the node crash test: a devnet chain that generates blocks (with a transfer each)
// as fast as it can on a simulated clock, with inclusion proofs and pruning, printing each committed height; the test SIGKILLs it.
// With --write-behind its commits are written behind (storage/write_behind.ts, as block synchronization does): it prints
// `generated <height>` per block and `committed <height>` for the height LMDB holds whole.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pino } from 'pino';
import { Generator } from '../../src/engine/generator/generator.js';
import { readPlainGeneratorKeys } from '../../src/engine/generator/keys.js';
import { SubStore } from '../../src/engine/state/substore.js';
import { codec } from '../../src/lib/codec/index.js';
import { addressFromPublicKey } from '../../src/lib/crypto/address.js';
import { computeMinFee, signTransaction } from '../../src/lib/transaction/index.js';
import { openChain } from '../../src/main/chain_setup.js';
import { getAuthAccount } from '../../src/modules/auth/method.js';
import { transferParamsSchema } from '../../src/modules/token/commands/transfer.js';
import { openDatabases } from '../../src/storage/database.js';
import { writeBehindOf } from '../../src/storage/write_behind.js';
import { crashConfig, crashSender } from './crash_config.js';

const dataPath = process.argv[2]!;
const config = crashConfig(dataPath);
const dbs = openDatabases(dataPath);
let now = 0;
const { chain, executor, aggregateCommits, state } = openChain(config, dbs, { now: () => now });
const chainID = Buffer.from(config.genesis.chainID, 'hex');
const sender = crashSender();
const senderPublicKey = Buffer.from(sender.publicKey, 'hex');
const view = state.newOverlay();
let nonce =
  getAuthAccount({ store: (p, s) => new SubStore(view, p, s) }, addressFromPublicKey(senderPublicKey))?.nonce ?? 0n;
const generator = new Generator({
  chain,
  executor,
  aggregateCommits,
  chainID,
  db: dbs.generator,
  keys: readPlainGeneratorKeys(config.generator!.keys.fromFile!),
  maxTransactionsSize: config.genesis.maxTransactionsSize,
  logger: pino({ level: 'silent' }),
  candidates: () => {
    const base = {
      module: 'token',
      command: 'transfer',
      nonce,
      senderPublicKey,
      params: codec.encode(transferParamsSchema, {
        tokenID: Buffer.from('0400000000000000', 'hex'),
        amount: 1n,
        recipientAddress: Buffer.alloc(20, 7),
        data: '',
      }),
    };
    return [
      signTransaction(
        { ...base, fee: computeMinFee(base) + 5000000n, signatures: [] },
        chainID,
        Buffer.from(sender.privateKey, 'hex'),
      ),
    ];
  },
  onBlock: (executed) => {
    nonce += BigInt(executed.block.transactions.length);
  },
  now: () => now,
});
const writeBehind = process.argv.includes('--write-behind');
const startHeight = chain.lastBlock().header.height;
let reported = startHeight;
if (writeBehind) chain.beginWriteBehind({ flushEvery: 4, maxSets: 40 });
for (;;) {
  now = chain.lastBlock().header.timestamp + config.genesis.blockTime;
  const block = await generator.tick();
  if (block === undefined) throw new Error(`no block generated at ${now}`);
  if (!writeBehind) {
    process.stdout.write(`committed ${block.header.height}\n`);
    continue;
  }
  process.stdout.write(`generated ${block.header.height}\n`);
  await chain.writeBehindRoom();
  await nextTurn();
  // one commit per block: the sets flushed count the blocks in LMDB
  const durable = startHeight + (writeBehindOf(dbs.root)?.stats().sets ?? 0);
  if (durable > reported) {
    reported = durable;
    process.stdout.write(`committed ${durable}\n`);
  }
}
