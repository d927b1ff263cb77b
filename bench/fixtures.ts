import { randomBytes } from 'node:crypto';
import type { Schema } from '../src/lib/codec/index.js';
import { codec } from '../src/lib/codec/index.js';
import { keyPairFromSeed } from '../src/lib/crypto/index.js';
import type { TransactionObject } from '../src/lib/transaction/index.js';
import { signTransaction } from '../src/lib/transaction/index.js';
import { transferParamsSchema } from '../src/modules/token/commands/transfer.js';
import { klayrChain } from './klayr.js';

export const chainID = Buffer.from('04000000', 'hex');
export const blockHeaderSchema: Schema = klayrChain.blockHeaderSchema;

export { transferParamsSchema };

export const sender = keyPairFromSeed(Buffer.alloc(32, 7));

export const transfer = (nonce = 0n): TransactionObject =>
  signTransaction(
    {
      module: 'token',
      command: 'transfer',
      nonce,
      fee: 1_000_000n,
      senderPublicKey: sender.publicKey,
      params: codec.encode(transferParamsSchema, {
        tokenID: Buffer.from('0400000000000000', 'hex'),
        amount: 100_000_000_000n,
        recipientAddress: randomBytes(20),
        data: 'kestrel benchmark',
      }),
      signatures: [],
    },
    chainID,
    sender.privateKey,
  );

export const blockHeader = (): Record<string, unknown> => ({
  version: 2,
  timestamp: 1_700_000_000,
  height: 123_456,
  previousBlockID: randomBytes(32),
  stateRoot: randomBytes(32),
  assetRoot: randomBytes(32),
  eventRoot: randomBytes(32),
  transactionRoot: randomBytes(32),
  validatorsHash: randomBytes(32),
  aggregateCommit: { height: 123_400, aggregationBits: randomBytes(13), certificateSignature: randomBytes(96) },
  generatorAddress: randomBytes(20),
  maxHeightPrevoted: 123_450,
  maxHeightGenerated: 123_300,
  impliesMaxPrevotes: true,
  signature: randomBytes(64),
});
