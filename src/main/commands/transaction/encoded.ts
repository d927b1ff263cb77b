/** What transaction:create, :sign and :send share once they run (loaded by their actions, not at start-up). */

import type { Schema } from '../../../lib/codec/index.js';
import { codec } from '../../../lib/codec/index.js';
import type { Ed25519KeyPair } from '../../../lib/crypto/index.js';
import { ed25519KeyPairFromPassphraseAndPath, legacyKeyPairFromPassphrase } from '../../../lib/crypto/index.js';
import type { ModuleMetadata } from '../../../lib/endpoint/metadata.js';
import type { TransactionObject } from '../../../lib/transaction/index.js';
import { decodeTransaction, encodeTransaction, transactionID } from '../../../lib/transaction/index.js';
import { readPassphrase } from '../prompt.js';

/** A hex-encoded transaction, decoded; its signatures may be missing (a transaction still to be signed). */
export const parseTransaction = (hex: string): TransactionObject => {
  if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new Error('The transaction must be provided as a encoded hex string.');
  return decodeTransaction(Buffer.from(hex, 'hex'));
};

/** Kestrel's own modules' metadata, for commands that run without a node (--offline). */
export const offlineMetadata = async (): Promise<ModuleMetadata[]> => {
  const [{ loadConfig }, { applicationModules }] = await Promise.all([
    import('../../config/load.js'),
    import('../../modules.js'),
  ]);
  return applicationModules(loadConfig()).map((m) => m.metadata());
};

/** The key pair of a passphrase at a derivation path, or its legacy key pair for `legacy` (as Klayr Core's deriveKeypair). */
export const keyPairOf = async (given: string | undefined, keyDerivationPath: string): Promise<Ed25519KeyPair> => {
  const legacy = keyDerivationPath === 'legacy';
  const passphrase = await readPassphrase(given, { anyText: legacy });
  return legacy
    ? legacyKeyPairFromPassphrase(passphrase)
    : ed25519KeyPairFromPassphraseAndPath(passphrase, keyDerivationPath);
};

/** A `--chain-id` value: 4 bytes of hex. */
export const chainIDFlag = (value: string): string => {
  if (!/^[0-9a-fA-F]{8}$/.test(value))
    throw new Error(`--chain-id must be 8 hex characters (4 bytes), got "${value}".`);
  return value.toLowerCase();
};

const line = (value: unknown, pretty: boolean | undefined): void => {
  process.stdout.write(`${JSON.stringify(value, undefined, pretty === true ? '  ' : undefined)}\n`);
};

/**
 * What Klayr Core's transaction:create and :sign print: `{ transaction: <hex> }`, then with --json
 * `{ transaction: <JSON with the params decoded> }`, its fields in `order` (create and sign differ).
 */
export const printTransaction = (
  tx: TransactionObject,
  paramsSchema: Schema,
  options: { json?: boolean; pretty?: boolean },
  order: readonly (keyof TransactionObject)[],
): void => {
  line({ transaction: encodeTransaction(tx).toString('hex') }, options.pretty);
  if (options.json !== true) return;
  const json: Record<string, unknown> = {};
  const fields = {
    module: tx.module,
    command: tx.command,
    nonce: tx.nonce.toString(),
    fee: tx.fee.toString(),
    senderPublicKey: tx.senderPublicKey.toString('hex'),
    signatures: tx.signatures.map((s) => s.toString('hex')),
    params: codec.decodeJSON(paramsSchema, tx.params),
  };
  for (const field of order) json[field] = fields[field as keyof typeof fields];
  json.id = transactionID(tx).toString('hex');
  line({ transaction: json }, options.pretty);
};
