import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';

/** `kestrel transaction:get <id>`: a transaction the running node has in a block, its params decoded (Klayr Core's output). */
export const transactionGetCommand = (): Command =>
  addNodeFlags(
    new Command('transaction:get')
      .description('Get transaction from local node by ID.')
      .argument('<id>', 'Transaction ID in hex format.'),
  ).action(async (id: string, options: NodeOptions) => {
    if (!/^[0-9a-fA-F]{64}$/.test(id)) throw new Error(`"${id}" is not a transaction ID (64 hex characters).`);
    const [{ decodedTransactionJSON, nodeModuleMetadata }, { isDatabaseKeyNotFound }, { printJSON, withNode }] =
      await Promise.all([
        import('../chain_json.js'),
        import('../../../lib/chain/klayr_not_found.js'),
        import('../node_client.js'),
      ]);
    const transaction = await withNode(options, async (client) => {
      const found = await client.invoke('chain_getTransactionByID', { id: id.toLowerCase() }).catch((e: unknown) => {
        if (isDatabaseKeyNotFound(e)) throw new Error(`Transaction with id '${id}' was not found.`);
        throw e;
      });
      return decodedTransactionJSON(
        found as Parameters<typeof decodedTransactionJSON>[0],
        await nodeModuleMetadata(client),
      );
    });
    printJSON(transaction, options.pretty === true);
  });
