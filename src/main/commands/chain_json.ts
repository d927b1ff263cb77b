/**
 * Blocks and transactions of a running node in the JSON Klayr Core's `block:get` and
 * `transaction:get` print (@klayr/api-client's decodeBlockJSON and toTransactionJSON): the RPC's
 * JSON with each transaction's params and each asset's data decoded by the schemas the node's
 * system_getMetadata publishes. Loaded by the commands' actions, not at start-up.
 */
import type { Schema } from '../../lib/codec/index.js';
import { codec } from '../../lib/codec/index.js';
import type { ModuleMetadata } from '../../lib/endpoint/metadata.js';
import type { RPCClient } from '../../rpc/client.js';

export interface TransactionJSON {
  module: string;
  command: string;
  params: string;
  [field: string]: unknown;
}

export interface BlockJSON {
  header: { version: number; [field: string]: unknown };
  transactions: TransactionJSON[];
  assets: { module: string; data: string }[];
}

export const nodeModuleMetadata = async (client: RPCClient): Promise<ModuleMetadata[]> =>
  ((await client.invoke('system_getMetadata')) as { modules: ModuleMetadata[] }).modules;

const registeredModule = (metadata: readonly ModuleMetadata[], name: string, what: string): ModuleMetadata => {
  const found = metadata.find((m) => m.name === name);
  if (found === undefined) throw new Error(`${what}Module: ${name} is not registered.`);
  return found;
};

const paramsSchema = (metadata: readonly ModuleMetadata[], tx: TransactionJSON): Schema => {
  const command = registeredModule(metadata, tx.module, '').commands.find((c) => c.name === tx.command);
  if (command === undefined) throw new Error(`Module: ${tx.module} CommandID: ${tx.command} is not registered.`);
  return command.params as Schema;
};

const assetSchema = (metadata: readonly ModuleMetadata[], blockVersion: number, module: string): Schema => {
  const asset = registeredModule(metadata, module, 'Asset schema ').assets.find((a) => a.version === blockVersion);
  if (asset === undefined)
    throw new Error(`Asset schema for Module: ${module} Version: ${blockVersion} is not registered.`);
  return asset.data as Schema;
};

/** The transaction with its params decoded (the other fields, and their order, as the node gave them). */
export const decodedTransactionJSON = (
  tx: TransactionJSON,
  metadata: readonly ModuleMetadata[],
): Record<string, unknown> => ({
  ...tx,
  params: codec.decodeJSON(paramsSchema(metadata, tx), Buffer.from(tx.params, 'hex')),
});

/** The block with its transactions' params and its assets' data decoded; the header as the node gave it. */
export const decodedBlockJSON = (block: BlockJSON, metadata: readonly ModuleMetadata[]): Record<string, unknown> => ({
  header: block.header,
  transactions: block.transactions.map((tx) => decodedTransactionJSON(tx, metadata)),
  assets: block.assets.map((asset) => ({
    ...asset,
    data: codec.decodeJSON(assetSchema(metadata, block.header.version, asset.module), Buffer.from(asset.data, 'hex')),
  })),
});

/** lisk-db's message for a key the node does not have (what Klayr Core and Kestrel answer for an unknown block or transaction). */
export const isKeyNotFound = (e: unknown): boolean =>
  e instanceof Error && /^Specified key [0-9a-f]+ does not exist/.test(e.message);
