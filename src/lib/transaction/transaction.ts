import { type CompiledSchema, compile } from '../codec/index.js';
import { uint32Size } from '../codec/varint.js';
import { addressFromPublicKey } from '../crypto/address.js';
import {
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  publicKeyFromPrivateKey,
  signData,
  signingDigest,
  verifyDetached,
} from '../crypto/ed25519.js';
import { sha256 } from '../crypto/hash.js';
import { MESSAGE_TAG_TRANSACTION } from '../crypto/tags.js';
import type { MultisigKeys, TransactionJSON, TransactionObject } from './schema.js';
import { MAX_PARAMS_SIZE, NAME_REGEX, SIGNATURE_LENGTH, transactionSchema } from './schema.js';

const txCodec: CompiledSchema<TransactionObject> = compile<TransactionObject>(transactionSchema);

export const encodeTransaction = (tx: TransactionObject): Buffer => txCodec.encode(tx);
export const decodeTransaction = (bytes: Uint8Array): TransactionObject => txCodec.decode(bytes);

/** Bytes that are signed: the transaction with no signatures. */
export const signingBytes = (tx: TransactionObject): Buffer => txCodec.encode({ ...tx, signatures: [] });

/** One encoded signature: field 7's key byte, the length varint, the bytes. */
const encodedSignatureSize = (signature: Uint8Array): number => 1 + uint32Size(signature.length) + signature.length;

/**
 * signingBytes(tx) without encoding again, for `bytes` that are tx's own encoding: signatures
 * are the last field, so the encoding without them is the part before them.
 */
export const signingBytesOfEncoded = (tx: TransactionObject, bytes: Buffer): Buffer =>
  bytes.subarray(
    0,
    bytes.length - tx.signatures.reduce((size, signature) => size + encodedSignatureSize(signature), 0),
  );

/** The transaction ID: SHA-256 of the full encoding (signatures included). */
export const transactionID = (tx: TransactionObject): Buffer => sha256(txCodec.encode(tx));

/** The transaction's JSON with its id, the fields in the order of Klayr's Transaction.toJSON (params after command). */
export const transactionToJSON = (tx: TransactionObject): TransactionJSON => {
  const json = txCodec.toJSON<Omit<TransactionJSON, 'id'>>(tx);
  return {
    module: json.module,
    command: json.command,
    params: json.params,
    nonce: json.nonce,
    fee: json.fee,
    senderPublicKey: json.senderPublicKey,
    signatures: json.signatures,
    id: transactionID(tx).toString('hex'),
  };
};

export const transactionFromJSON = (json: unknown): TransactionObject => {
  const tx = txCodec.fromJSON(json);
  tx.signatures ??= [];
  return tx;
};

export const senderAddress = (tx: TransactionObject): Buffer => addressFromPublicKey(tx.senderPublicKey);

/** @klayr/chain Transaction.validate: schema, names, params size, signature lengths. Throws with the first problem. */
export const validateTransaction = (tx: TransactionObject): void => {
  txCodec.validate(tx);
  if (!NAME_REGEX.test(tx.module)) throw new Error(`Invalid module name ${tx.module}`);
  if (!NAME_REGEX.test(tx.command)) throw new Error(`Invalid command name ${tx.command}`);
  if (tx.params.length > MAX_PARAMS_SIZE) throw new Error(`Params exceeds max size allowed ${MAX_PARAMS_SIZE}.`);
  if (tx.signatures.length === 0) throw new Error('Signatures must not be empty');
  for (const s of tx.signatures) {
    if (s.length !== 0 && s.length !== SIGNATURE_LENGTH) throw new Error('Signature must be empty or 64 bytes');
  }
};

const checkSigningInputs = (chainID: Uint8Array, privateKey: Uint8Array): void => {
  if (chainID.length === 0) throw new Error('ChainID is required to sign a transaction');
  if (privateKey.length !== 64) throw new Error('Private key must be 64 bytes');
};

export const signatureOf = (tx: TransactionObject, chainID: Uint8Array, privateKey: Uint8Array): Buffer =>
  signData(MESSAGE_TAG_TRANSACTION, chainID, signingBytes(tx), privateKey);

/** Single-signature signing: replaces the signatures with the one signature. */
export const signTransaction = (
  tx: TransactionObject,
  chainID: Uint8Array,
  privateKey: Uint8Array,
): TransactionObject => {
  checkSigningInputs(chainID, privateKey);
  return { ...tx, signatures: [signatureOf(tx, chainID, privateKey)] };
};

const sortKeys = (keys: readonly Buffer[]): Buffer[] => [...keys].sort(Buffer.compare);

/**
 * Adds this key's signature at its slot in (sorted mandatory ++ sorted optional) keys,
 * filling untouched slots with empty signatures, as @klayr/transactions does.
 */
export const signMultiSignatureTransaction = (
  tx: TransactionObject,
  chainID: Uint8Array,
  privateKey: Uint8Array,
  keys: Pick<MultisigKeys, 'mandatoryKeys' | 'optionalKeys'>,
): TransactionObject => {
  checkSigningInputs(chainID, privateKey);
  const signature = signatureOf(tx, chainID, privateKey);
  const publicKey = publicKeyFromPrivateKey(privateKey);
  const all = [...sortKeys(keys.mandatoryKeys), ...sortKeys(keys.optionalKeys)];
  const signatures = [...tx.signatures];
  all.forEach((key, i) => {
    if (key.equals(publicKey)) signatures[i] = signature;
    else signatures[i] ??= Buffer.alloc(0);
  });
  return { ...tx, signatures };
};

/** One signature the auth module checks, under the key it must verify with. */
export interface SignaturePair {
  readonly key: Buffer;
  readonly signature: Buffer;
}

/**
 * The signatures the auth module checks, in its order, and the error it raises once they all
 * verify (a rule broken after them), if any. Pairs are always 32-byte keys and 64-byte
 * signatures: a malformed one ends the list as a signature failure.
 */
export interface SignaturePlan {
  readonly pairs: readonly SignaturePair[];
  readonly failure?: string;
}

export const failedSignatureMessage = (signature: Uint8Array, id: Uint8Array): string =>
  `Failed to validate signature '${Buffer.from(signature).toString('hex')}' for transaction with id '${Buffer.from(id).toString('hex')}'`;

const wellFormed = (key: Buffer, signature: Buffer): boolean =>
  key.length === ED25519_PUBLIC_KEY_LENGTH && signature.length === ED25519_SIGNATURE_LENGTH;

/**
 * The auth module's rule as a plan: a single-signature account has exactly one valid signature;
 * a multisignature account has one slot per key, every mandatory slot signed, exactly
 * numberOfSignatures non-empty, each valid.
 */
export const signaturePlan = (
  tx: TransactionObject,
  account: MultisigKeys | undefined,
  idOf: () => Uint8Array,
): SignaturePlan => {
  if (account === undefined || account.numberOfSignatures === 0) {
    if (tx.signatures.length !== 1) {
      return {
        pairs: [],
        failure: `Transactions from a single signature account should have exactly one signature. Found ${tx.signatures.length} signatures.`,
      };
    }
    const signature = tx.signatures[0];
    return wellFormed(tx.senderPublicKey, signature)
      ? { pairs: [{ key: tx.senderPublicKey, signature }] }
      : { pairs: [], failure: failedSignatureMessage(signature, idOf()) };
  }
  const keys = [...account.mandatoryKeys, ...account.optionalKeys];
  const nonEmpty = tx.signatures.filter((s) => s.length !== 0).length;
  if (nonEmpty !== account.numberOfSignatures || tx.signatures.length !== keys.length) {
    return {
      pairs: [],
      failure: `Transaction signatures does not match required number of signatures: '${account.numberOfSignatures}' for transaction with id '${Buffer.from(idOf()).toString('hex')}'`,
    };
  }
  const pairs: SignaturePair[] = [];
  for (let i = 0; i < keys.length; i++) {
    const signature = tx.signatures[i];
    if (signature.length !== 0) {
      if (!wellFormed(keys[i], signature)) return { pairs, failure: failedSignatureMessage(signature, idOf()) };
      pairs.push({ key: keys[i], signature });
    } else if (i < account.mandatoryKeys.length) return { pairs, failure: 'Missing signature for a mandatory key.' };
  }
  return { pairs };
};

/** The digest every signature of a transaction signs: SHA-256 of the tag, the chain ID and the signing bytes. */
export const transactionSigningDigest = (chainID: Uint8Array, bytes: Uint8Array): Buffer =>
  signingDigest(MESSAGE_TAG_TRANSACTION, chainID, bytes);

/** Index of the first pair whose signature does not verify, -1 when all do. */
export const firstInvalidPair = (digest: Uint8Array, pairs: readonly SignaturePair[]): number =>
  pairs.findIndex((p) => !verifyDetached(digest, p.signature, p.key));

/** The auth module's reason to refuse, undefined when the plan's signatures verify and it has no failure. */
export const signatureFailure = (plan: SignaturePlan, invalidPair: number, id: Uint8Array): string | undefined =>
  invalidPair >= 0 ? failedSignatureMessage(plan.pairs[invalidPair].signature, id) : plan.failure;

/** The auth module's signature rule (see signaturePlan), checked on this thread. Throws with the reason. */
export const verifyTransactionSignatures = (
  tx: TransactionObject,
  chainID: Uint8Array,
  account?: MultisigKeys,
  bytes: Buffer = signingBytes(tx),
): void => {
  const id = () => transactionID(tx);
  const plan = signaturePlan(tx, account, id);
  const invalid = firstInvalidPair(transactionSigningDigest(chainID, bytes), plan.pairs);
  if (invalid >= 0 || plan.failure !== undefined) throw new Error(signatureFailure(plan, invalid, id()));
};
