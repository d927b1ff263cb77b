import type { EndpointDeclarations, StoreAccess } from '../../engine/state_machine/module.js';
import { addressFromPublicKey, klayr32ToAddress } from '../../lib/crypto/address.js';
import { parseHex } from '../../lib/crypto/bytes.js';
import { MESSAGE_TAG_MULTISIG_REG } from '../../lib/crypto/tags.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import { arrayOf, booleanType, endpointSchema, hex, klayr32, stringType } from '../../lib/endpoint/metadata.js';
import { hexBetween, hexBytes, transactionHex } from '../../lib/endpoint/params.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import { decodeTransaction, validateTransaction, verifyTransactionSignatures } from '../../lib/transaction/index.js';
import { hasUserAccount } from '../token/stores.js';
import { DEFAULT_AUTH_ACCOUNT, getAuthAccount } from './method.js';
import { authAccountSchema, multisigRegMsgSchema } from './schemas.js';

/** A transaction from its hex encoding, validated as @klayr/chain does (the auth module's getTransactionFromParameter). */
const transactionParam = (value: unknown): TransactionObject => {
  const tx = decodeTransaction(parseHex(value, 'transaction'));
  validateTransaction(tx);
  return tx;
};

/** An Ed25519 public key and its signature: 64 bytes, or empty for an optional key that did not sign. */
const keySignature = (signatureMinBytes: number) => ({
  type: 'object',
  required: ['publicKey', 'signature'],
  properties: { publicKey: hexBytes(32), signature: hexBetween(signatureMinBytes, 64) },
});

/**
 * The auth namespace. getAuthAccount: an address with an auth entry answers it; an address with no
 * auth entry yet but a token account answers Klayr's default auth account (nonce 0, no keys), as its
 * first transaction will create it, so that wallets (`@klayr/api-client`'s transaction.create) can
 * send it; an address the chain has never seen is an error, as the interface spec says.
 */
export const authEndpoints = (state: () => StoreAccess, chainID: Buffer): Endpoints => ({
  getAuthAccount: {
    params: { type: 'object', required: ['address'], properties: { address: { type: 'string', format: 'klayr32' } } },
    handler: ({ params }) => {
      const view = state();
      const address = klayr32ToAddress(params.address as string);
      const account =
        getAuthAccount(view, address) ?? (hasUserAccount(view, address) ? DEFAULT_AUTH_ACCOUNT : undefined);
      if (account === undefined) throw new Error(`Auth account for address ${String(params.address)} does not exist.`);
      return {
        nonce: account.nonce.toString(),
        numberOfSignatures: account.numberOfSignatures,
        mandatoryKeys: account.mandatoryKeys.map((k) => k.toString('hex')),
        optionalKeys: account.optionalKeys.map((k) => k.toString('hex')),
      };
    },
  },
  isValidSignature: {
    params: { type: 'object', required: ['transaction'], properties: { transaction: transactionHex } },
    handler: ({ params }) => {
      const tx = transactionParam(params.transaction);
      const account = getAuthAccount(state(), addressFromPublicKey(tx.senderPublicKey)) ?? DEFAULT_AUTH_ACCOUNT;
      try {
        verifyTransactionSignatures(tx, chainID, account);
        return { verified: true };
      } catch {
        return { verified: false };
      }
    },
  },
  isValidNonce: {
    params: { type: 'object', required: ['transaction'], properties: { transaction: transactionHex } },
    handler: ({ params }) => {
      const tx = transactionParam(params.transaction);
      const account = getAuthAccount(state(), addressFromPublicKey(tx.senderPublicKey)) ?? DEFAULT_AUTH_ACCOUNT;
      return { verified: tx.nonce === account.nonce };
    },
  },
  getMultiSigRegMsgSchema: { constant: true, handler: () => ({ schema: multisigRegMsgSchema }) },
  getMultiSigRegMsgTag: { constant: true, handler: () => ({ tag: MESSAGE_TAG_MULTISIG_REG }) },
  sortMultisignatureGroup: {
    params: {
      type: 'object',
      required: ['mandatory', 'optional'],
      properties: {
        mandatory: { type: 'array', items: keySignature(64), minItems: 1, maxItems: 64 },
        optional: { type: 'array', items: keySignature(0), minItems: 0, maxItems: 64 },
      },
    },
    handler: ({ params }) => {
      type Pair = { publicKey: string; signature: string };
      const byKey = (a: Pair, b: Pair): number => (a.publicKey < b.publicKey ? -1 : 1);
      const mandatory = [...(params.mandatory as Pair[])].sort(byKey);
      const optional = [...(params.optional as Pair[])].sort(byKey);
      return {
        mandatoryKeys: mandatory.map((p) => p.publicKey),
        optionalKeys: optional.map((p) => p.publicKey),
        signatures: [...mandatory, ...optional].map((p) => p.signature),
      };
    },
  },
});

const transactionRequest = endpointSchema('/auth/transactionRequest', { transaction: hex }, ['transaction']);
const verifyResult = endpointSchema('/auth/verifyResult', { verified: booleanType }, ['verified']);

/** A member's hex public key and signature in sortMultisignatureGroup (an optional member may not have signed). */
const member = (fieldNumber: number, minSignatureLength: number) =>
  ({
    type: 'object',
    required: ['publicKey', 'signature'],
    properties: {
      publicKey: { type: 'string', minLength: 64, maxLength: 64, fieldNumber },
      signature: { type: 'string', minLength: minSignatureLength, maxLength: 128, fieldNumber: fieldNumber + 1 },
    },
  }) as const;

const keys = (fieldNumber: number) =>
  ({
    ...arrayOf({ dataType: 'bytes', minLength: 32, maxLength: 32 }),
    fieldNumber,
    minItems: 0,
    maxItems: 64,
  }) as const;

/** The auth endpoints as Klayr's metadata publishes them. */
export const AUTH_ENDPOINTS: EndpointDeclarations = {
  published: [
    {
      name: 'getAuthAccount',
      request: endpointSchema('/auth/addressRequest', { address: klayr32 }, ['address']),
      response: authAccountSchema,
    },
    { name: 'isValidNonce', request: transactionRequest, response: verifyResult },
    { name: 'isValidSignature', request: transactionRequest, response: verifyResult },
    { name: 'getMultiSigRegMsgSchema', response: multisigRegMsgSchema },
    {
      name: 'sortMultisignatureGroup',
      request: endpointSchema(
        '/auth/command/sortMultisig',
        {
          mandatory: { ...arrayOf(member(1, 128)), minItems: 1, maxItems: 64 },
          optional: { ...arrayOf(member(3, 0)), minItems: 0, maxItems: 64 },
        },
        ['mandatory', 'optional'],
      ),
      response: endpointSchema(
        '/auth/sortMultisignatureGroupResponse',
        {
          mandatoryKeys: keys(1),
          optionalKeys: keys(2),
          signatures: { ...arrayOf({ dataType: 'bytes', minLength: 64, maxLength: 64 }), fieldNumber: 3 },
        },
        ['mandatoryKeys', 'optionalKeys', 'signatures'],
      ),
    },
    {
      name: 'getMultiSigRegMsgTag',
      response: endpointSchema('/auth/mutliSignatureRegistrationSignatureMessageTagResponse', { tag: stringType }, [
        'tag',
      ]),
    },
  ],
};
