import type { Schema } from '../codec/index.js';

/** @klayr/chain's transaction schema (the base schema plus its length limits). */
export const transactionSchema = {
  $id: '/klayr/transaction',
  type: 'object',
  required: ['module', 'command', 'nonce', 'fee', 'senderPublicKey', 'params'],
  properties: {
    module: { dataType: 'string', fieldNumber: 1, minLength: 1, maxLength: 32 },
    command: { dataType: 'string', fieldNumber: 2, minLength: 1, maxLength: 32 },
    nonce: { dataType: 'uint64', fieldNumber: 3 },
    fee: { dataType: 'uint64', fieldNumber: 4 },
    senderPublicKey: { dataType: 'bytes', fieldNumber: 5, minLength: 32, maxLength: 32 },
    params: { dataType: 'bytes', fieldNumber: 6 },
    signatures: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 7 },
  },
} as const satisfies Schema;

export const MAX_PARAMS_SIZE = 14 * 1024;
export const NAME_REGEX = /^[a-zA-Z0-9]*$/;
export const SIGNATURE_LENGTH = 64;
export const DEFAULT_MIN_FEE_PER_BYTE = 1000;

export interface TransactionObject {
  module: string;
  command: string;
  nonce: bigint;
  fee: bigint;
  senderPublicKey: Buffer;
  params: Buffer;
  signatures: Buffer[];
}

export interface TransactionJSON {
  module: string;
  command: string;
  nonce: string;
  fee: string;
  senderPublicKey: string;
  params: string;
  signatures: string[];
  id?: string;
}

export interface MultisigKeys {
  numberOfSignatures: number;
  mandatoryKeys: readonly Buffer[];
  optionalKeys: readonly Buffer[];
}
