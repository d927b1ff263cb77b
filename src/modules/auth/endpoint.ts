import { klayr32ToAddress, addressFromPublicKey } from '../../lib/crypto/address.js';
import { parseHex } from '../../lib/crypto/bytes.js';
import { MESSAGE_TAG_MULTISIG_REG } from '../../lib/crypto/tags.js';
import { decodeTransaction, validateTransaction, verifyTransactionSignatures } from '../../lib/transaction/index.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import type { StoreAccess } from '../../engine/state_machine/module.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import { hexBetween, hexBytes, transactionHex } from '../../rpc/params.js';
import { DEFAULT_AUTH_ACCOUNT, getAuthAccount } from './module.js';
import { multisigRegMsgSchema } from './schemas.js';
import { hasUserAccount } from '../token/stores.js';

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
export const authEndpoints = (state: () => StoreAccess, chainID: Buffer): Record<string, EndpointDefinition> => ({
  getAuthAccount: {
    params: { type: 'object', required: ['address'], properties: { address: { type: 'string', format: 'klayr32' } } },
    handler: ({ params }) => {
      const view = state();
      const address = klayr32ToAddress(params.address as string);
      const account = getAuthAccount(view, address) ?? (hasUserAccount(view, address) ? DEFAULT_AUTH_ACCOUNT : undefined);
      if (account === undefined) throw new Error(`Auth account for address ${String(params.address)} does not exist.`);
      return { nonce: account.nonce.toString(), numberOfSignatures: account.numberOfSignatures, mandatoryKeys: account.mandatoryKeys.map((k) => k.toString('hex')), optionalKeys: account.optionalKeys.map((k) => k.toString('hex')) };
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
      properties: { mandatory: { type: 'array', items: keySignature(64), minItems: 1, maxItems: 64 }, optional: { type: 'array', items: keySignature(0), minItems: 0, maxItems: 64 } },
    },
    handler: ({ params }) => {
      type Pair = { publicKey: string; signature: string };
      const byKey = (a: Pair, b: Pair): number => (a.publicKey < b.publicKey ? -1 : 1);
      const mandatory = [...(params.mandatory as Pair[])].sort(byKey);
      const optional = [...(params.optional as Pair[])].sort(byKey);
      return { mandatoryKeys: mandatory.map((p) => p.publicKey), optionalKeys: optional.map((p) => p.publicKey), signatures: [...mandatory, ...optional].map((p) => p.signature) };
    },
  },
});
