import { compile } from '../src/lib/codec/index.js';
import type { TransactionObject } from '../src/lib/transaction/index.js';
import { transactionSchema } from '../src/lib/transaction/index.js';
import { blockHeader, blockHeaderSchema, transfer } from './fixtures.js';
import { runSuite } from './harness.js';
import { klayrCodec } from './klayr.js';

const header = blockHeader();
const tx = transfer();
const headerCodec = compile(blockHeaderSchema);
const txCodec = compile<TransactionObject>(transactionSchema);
const headerBytes = headerCodec.encode(header);
const txBytes = txCodec.encode(tx);
const theirs = klayrCodec.codec;
// Klayr compiles a schema on first use too; warm both before timing
theirs.decode(blockHeaderSchema, theirs.encode(blockHeaderSchema, header));
theirs.decode(transactionSchema, theirs.encode(transactionSchema, tx));

export const codecBench = () =>
  runSuite('codec', [
    {
      name: 'encode block header',
      ours: () => headerCodec.encode(header),
      baseline: () => theirs.encode(blockHeaderSchema, header),
      baselineName: '@klayr/codec',
      goal: 1.5,
    },
    {
      name: 'decode block header',
      ours: () => headerCodec.decode(headerBytes),
      baseline: () => theirs.decode(blockHeaderSchema, headerBytes),
      baselineName: '@klayr/codec',
      goal: 1.5,
    },
    {
      name: 'encode transfer transaction',
      ours: () => txCodec.encode(tx),
      baseline: () => theirs.encode(transactionSchema, tx),
      baselineName: '@klayr/codec',
      goal: 1.5,
    },
    {
      name: 'decode transfer transaction',
      ours: () => txCodec.decode(txBytes),
      baseline: () => theirs.decode(transactionSchema, txBytes),
      baselineName: '@klayr/codec',
      goal: 1.5,
    },
    {
      name: 'block header toJSON',
      ours: () => headerCodec.toJSON(header),
      baseline: () => theirs.toJSON(blockHeaderSchema, header),
      baselineName: '@klayr/codec',
    },
  ]);
