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

/** The params schema of a module's command, from system_getMetadata's modules (the node's, or Kestrel's own offline). */
export const paramsSchemaOf = (metadata: readonly ModuleMetadata[], module: string, command: string): Schema => {
  const schema = metadata.find((m) => m.name === module)?.commands.find((c) => c.name === command)?.params;
  if (schema === undefined) throw new Error(`Command ${module}:${command} is not registered.`);
  return schema as Schema;
};

const assetSchema = (metadata: readonly ModuleMetadata[], blockVersion: number, module: string): Schema => {
  const registered = metadata.find((m) => m.name === module);
  if (registered === undefined) throw new Error(`Asset schema Module: ${module} is not registered.`);
  const asset = registered.assets.find((a) => a.version === blockVersion);
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
  params: codec.decodeJSON(paramsSchemaOf(metadata, tx.module, tx.command), Buffer.from(tx.params, 'hex')),
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
