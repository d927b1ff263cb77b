import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';
import { printJSON, withNode } from '../node_client.js';

/** `kestrel transaction:send <hex>`: posts an encoded transaction to the running node's pool. */
export const transactionSendCommand = (): Command =>
  addNodeFlags(
    new Command('transaction:send')
      .description('Send an encoded transaction to the running node (txpool_postTransaction).')
      .argument('<transaction>', 'Encoded transaction (hex)'),
  ).action(async (hex: string, options: NodeOptions) => {
    const [{ transactionID }, { parseTransaction }] = await Promise.all([
      import('../../../lib/transaction/index.js'),
      import('./encoded.js'),
    ]);
    const tx = parseTransaction(hex);
    const result = await withNode(options, (client) => client.invoke('txpool_postTransaction', { transaction: hex }));
    printJSON({ ...(result as object), id: transactionID(tx).toString('hex') }, options.pretty === true);
  });
