import type { Schema } from '../../../lib/codec/index.js';

/** The name of the token module's command and of its cross-chain command (Klayr's CROSS_CHAIN_COMMAND_NAME_TRANSFER). */
export const CROSS_CHAIN_COMMAND_NAME_TRANSFER = 'transferCrossChain';
/** Klayr's MAX_DATA_LENGTH of a transfer's data. */
export const MAX_DATA_LENGTH = 64;
/** Klayr's CCM status codes the token module reads. */
export const CCM_STATUS_OK = 0;
export const MAX_RESERVED_ERROR_STATUS = 63;

const tokenID = (fieldNumber: number) => ({ dataType: 'bytes', fieldNumber, minLength: 8, maxLength: 8 }) as const;

/** token:transferCrossChain's params (klayr-framework crossChainTransferParamsSchema). */
export const crossChainTransferParamsSchema = {
  $id: '/klayr/ccTransferParams',
  type: 'object',
  required: ['tokenID', 'amount', 'receivingChainID', 'recipientAddress', 'data', 'messageFee', 'messageFeeTokenID'],
  properties: {
    tokenID: tokenID(1),
    amount: { dataType: 'uint64', fieldNumber: 2 },
    receivingChainID: { dataType: 'bytes', fieldNumber: 3, minLength: 4, maxLength: 4 },
    recipientAddress: { dataType: 'bytes', fieldNumber: 4, format: 'klayr32' },
    data: { dataType: 'string', fieldNumber: 5, minLength: 0, maxLength: MAX_DATA_LENGTH },
    messageFee: { dataType: 'uint64', fieldNumber: 6 },
    messageFeeTokenID: tokenID(7),
  },
} as const satisfies Schema;

export interface CrossChainTransferParams {
  tokenID: Buffer;
  amount: bigint;
  receivingChainID: Buffer;
  recipientAddress: Buffer;
  data: string;
  messageFee: bigint;
  messageFeeTokenID: Buffer;
}

/** The params of the transferCrossChain CCM (klayr-framework crossChainTransferMessageParams). */
export const crossChainTransferMessageParamsSchema = {
  $id: '/klayr/ccTransferMessageParams',
  type: 'object',
  required: ['tokenID', 'amount', 'senderAddress', 'recipientAddress', 'data'],
  properties: {
    tokenID: tokenID(1),
    amount: { dataType: 'uint64', fieldNumber: 2 },
    senderAddress: { dataType: 'bytes', fieldNumber: 3, format: 'klayr32' },
    recipientAddress: { dataType: 'bytes', fieldNumber: 4, format: 'klayr32' },
    data: { dataType: 'string', fieldNumber: 5, minLength: 0, maxLength: MAX_DATA_LENGTH },
  },
} as const satisfies Schema;

export interface CrossChainTransferMessageParams {
  tokenID: Buffer;
  amount: bigint;
  senderAddress: Buffer;
  recipientAddress: Buffer;
  data: string;
}
