import type { Schema } from '../codec/index.js';

/** The payloads of klayr-framework 0.12.3's P2P procedures and events (engine/consensus/schema.js, generator/schemas.js). */

const bytes32 = { dataType: 'bytes', minLength: 32, maxLength: 32 } as const;

export const getBlocksFromIdRequestSchema: Schema = {
  $id: 'klayr/getBlocksFromIdRequest',
  title: 'Get Blocks From Id Request',
  type: 'object',
  required: ['blockId'],
  properties: { blockId: { fieldNumber: 1, ...bytes32 } },
};

export const getBlocksFromIdResponseSchema: Schema = {
  $id: 'klayr/getBlocksFromIdResponse',
  title: 'Get Blocks From Id Response',
  type: 'object',
  required: ['blocks'],
  properties: { blocks: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } } },
};

export const getHighestCommonBlockRequestSchema: Schema = {
  $id: '/klayr/getHighestCommonBlockRequest',
  title: 'Get Highest Common Block Request',
  type: 'object',
  required: ['ids'],
  properties: { ids: { type: 'array', fieldNumber: 1, minItems: 1, items: { ...bytes32 } } },
};

export const getHighestCommonBlockResponseSchema: Schema = {
  $id: '/klayr/getHighestCommonBlockResponse',
  title: 'Get Highest Common Block Response',
  type: 'object',
  required: ['id'],
  properties: { id: { dataType: 'bytes', fieldNumber: 1, minLength: 32, maxLength: 32 } },
};

export const postBlockEventSchema: Schema = {
  $id: '/klayr/postBlockEvent',
  title: 'Post Block Event',
  type: 'object',
  required: ['block'],
  properties: { block: { dataType: 'bytes', fieldNumber: 1 } },
};

const transactionIds = {
  type: 'array',
  fieldNumber: 1,
  minItems: 1,
  maxItems: 100,
  items: { dataType: 'bytes' },
} as const;

export const getTransactionRequestSchema: Schema = {
  $id: '/klayr/getTransactionRequest',
  title: 'Broadcast Transactions',
  type: 'object',
  required: ['transactionIds'],
  properties: { transactionIds },
};

export const getTransactionsResponseSchema: Schema = {
  $id: '/klayr/getTransactionsResponse',
  title: 'Transactions',
  type: 'object',
  required: ['transactions'],
  properties: { transactions: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } } },
};

export const postTransactionsAnnouncementSchema: Schema = {
  $id: '/klayr/postTransactionsAnnouncementSchema',
  title: 'Post Transactions Announcement',
  type: 'object',
  required: ['transactionIds'],
  properties: { transactionIds },
};

export const getLegacyBlocksFromIdRequestSchema: Schema = {
  $id: '/legacy/getBlocksFromIdRequest',
  title: 'Get Blocks From Id Request',
  type: 'object',
  required: ['blockID', 'snapshotBlockID'],
  properties: {
    blockID: { fieldNumber: 1, ...bytes32 },
    snapshotBlockID: { fieldNumber: 2, ...bytes32 },
  },
};

export interface GetBlocksFromIdRequest {
  blockId: Buffer;
}
export interface BlocksResponse {
  blocks: Buffer[];
}
export interface HighestCommonBlockRequest {
  ids: Buffer[];
}
export interface HighestCommonBlockResponse {
  id: Buffer;
}
export interface PostBlockEvent {
  block: Buffer;
}
export interface TransactionIDs {
  transactionIds: Buffer[];
}
export interface TransactionsResponse {
  transactions: Buffer[];
}
