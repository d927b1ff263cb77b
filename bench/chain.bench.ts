import { randomBytes } from 'node:crypto';
import type { Block, BlockHeader } from '../src/lib/chain/block.js';
import { codec } from '../src/lib/codec/index.js';
import { addressFromPublicKey } from '../src/lib/crypto/address.js';
import { signingDigest, verifyDetached } from '../src/lib/crypto/ed25519.js';
import { computeMinFee, signTransaction, signingBytes } from '../src/lib/transaction/index.js';
import type { TransactionObject } from '../src/lib/transaction/index.js';
import { MESSAGE_TAG_TRANSACTION } from '../src/lib/crypto/tags.js';
import { EMPTY_HASH } from '../src/lib/tree/index.js';
import { openDatabases } from '../src/engine/storage/database.js';
import { TransactionPool } from '../src/engine/txpool/index.js';
import { poolStatusOf } from '../src/engine/txpool/endpoint.js';
import { openChain } from '../src/main/chain_setup.js';
import { loadConfig } from '../src/main/config/index.js';
import { randomAssetCodec } from '../src/modules/random/method.js';
import { transferParamsSchema } from '../src/modules/token/transfer.js';
import { devValidators } from '../test/helpers/devnet.js';
import { tempDataPath } from '../test/helpers/state.js';
import { runSuite } from './harness.js';

const TRANSFERS = 100;
const chainID = Buffer.from('04000000', 'hex');

/** Transfers from the dev validators' accounts (one nonce each), valid on the devnet genesis state. */
const transfers = (): TransactionObject[] =>
  devValidators()
    .slice(0, TRANSFERS)
    .map((v) => {
      const base = {
        module: 'token',
        command: 'transfer',
        nonce: 0n,
        senderPublicKey: Buffer.from(v.publicKey, 'hex'),
        params: codec.encode(transferParamsSchema, { tokenID: Buffer.from('0400000000000000', 'hex'), amount: 1000n, recipientAddress: randomBytes(20), data: '' }),
      };
      return signTransaction({ ...base, fee: computeMinFee(base) + 5000000n, signatures: [] }, chainID, Buffer.from(v.privateKey, 'hex'));
    });

export const chainBench = async () => {
  const config = loadConfig({ dataPath: tempDataPath() });
  const { chain, genesis } = openChain(config, openDatabases(tempDataPath()));
  const txs = transfers();
  const timestamp = genesis.header.timestamp + config.genesis.blockTime;
  const generator = chain.bft.getGeneratorAtTimestamp(chain.engineView(), 1, timestamp);
  const header: BlockHeader = {
    ...genesis.header,
    version: 2,
    height: 1,
    timestamp,
    generatorAddress: generator.address,
    transactionRoot: EMPTY_HASH,
  };
  const block: Block = { header, transactions: txs, assets: [{ module: 'random', data: randomAssetCodec.encode({ seedReveal: randomBytes(16) }) }] };
  const signed = txs.map((tx) => ({ digest: signingDigest(MESSAGE_TAG_TRANSACTION, chainID, signingBytes(tx)), signature: tx.signatures[0]!, key: tx.senderPublicKey }));
  const rawVerifies = () => {
    for (const s of signed) verifyDetached(s.digest, s.signature, s.key);
  };
  if (txs.some((tx) => addressFromPublicKey(tx.senderPublicKey).equals(Buffer.alloc(20)))) throw new Error('unexpected sender');
  const results = await runSuite('chain', [
    {
      name: `execute a block of ${TRANSFERS} transfers (signatures, hooks, state root)`,
      ours: () => chain.rootsOf(chain.execute(block)),
      baseline: rawVerifies,
      baselineName: `${TRANSFERS} raw ed25519 verifies, one core (sodium)`,
    },
    {
      name: `txpool ingest of ${TRANSFERS} signed transfers (verify against state + admit)`,
      ours: () => {
        const pool = new TransactionPool({ verifyTransaction: () => 1 });
        for (const tx of txs) {
          const verified = chain.verifyTransaction(tx);
          pool.addVerified(tx, poolStatusOf(verified.status));
        }
      },
      baseline: rawVerifies,
      baselineName: `${TRANSFERS} raw ed25519 verifies, one core (sodium)`,
      goal: 0.7,
    },
  ]);
  const blockRate = results[0]!.oursOpsPerSec;
  console.log(`block processing: ${blockRate * TRANSFERS} transfers/s in blocks of ${TRANSFERS}`);
  return results;
};
