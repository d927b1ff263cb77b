import type { Schema } from '../codec/index.js';

/**
 * The schemas of the legacy chain (the Lisk v3 blocks before a snapshot) as klayr-framework 0.12.3
 * reads them (engine/legacy/schemas.js): blocks are `{ header bytes, payload: transaction bytes[] }`,
 * every header and transaction is read with the version 2 schemas.
 */
export const legacyBlockSchema: Schema = {
  $id: '/block/v2',
  type: 'object',
  properties: {
    header: { dataType: 'bytes', fieldNumber: 1 },
    payload: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 2 },
  },
  required: ['header', 'payload'],
};

export const legacyBlockHeaderSchema: Schema = {
  $id: '/block/v2/header/',
  type: 'object',
  properties: {
    version: { dataType: 'uint32', fieldNumber: 1 },
    timestamp: { dataType: 'uint32', fieldNumber: 2 },
    height: { dataType: 'uint32', fieldNumber: 3 },
    previousBlockID: { dataType: 'bytes', fieldNumber: 4, minLength: 32, maxLength: 32 },
    transactionRoot: { dataType: 'bytes', fieldNumber: 5, minLength: 32, maxLength: 32 },
    generatorPublicKey: { dataType: 'bytes', fieldNumber: 6, minLength: 32, maxLength: 32 },
    reward: { dataType: 'uint64', fieldNumber: 7 },
    asset: { dataType: 'bytes', fieldNumber: 8 },
    signature: { dataType: 'bytes', fieldNumber: 9, minLength: 64, maxLength: 64 },
  },
  required: [
    'version',
    'timestamp',
    'height',
    'previousBlockID',
    'transactionRoot',
    'generatorPublicKey',
    'reward',
    'asset',
  ],
};

export const legacyTransactionSchema: Schema = {
  $id: '/block/v2/transaction',
  type: 'object',
  required: ['moduleID', 'assetID', 'nonce', 'fee', 'senderPublicKey', 'asset'],
  properties: {
    moduleID: { dataType: 'uint32', fieldNumber: 1, minimum: 2 },
    assetID: { dataType: 'uint32', fieldNumber: 2 },
    nonce: { dataType: 'uint64', fieldNumber: 3 },
    fee: { dataType: 'uint64', fieldNumber: 4 },
    senderPublicKey: { dataType: 'bytes', fieldNumber: 5, minLength: 32, maxLength: 32 },
    asset: { dataType: 'bytes', fieldNumber: 6 },
    signatures: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 7 },
  },
};

/** A bracket's progress as Klayr stores it (its legacy.db under 0x02 || snapshotBlockID). */
export const legacyChainBracketInfoSchema: Schema = {
  $id: '/legacy/legacyChainBracketInfo',
  type: 'object',
  properties: {
    startHeight: { dataType: 'uint32', fieldNumber: 1 },
    snapshotBlockHeight: { dataType: 'uint32', fieldNumber: 2 },
    lastBlockHeight: { dataType: 'uint32', fieldNumber: 3 },
  },
  required: ['startHeight', 'snapshotBlockHeight', 'lastBlockHeight'],
};
