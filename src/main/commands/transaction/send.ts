import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';

/** `kestrel transaction:send <hex>`: posts an encoded transaction to the running node's pool; prints Klayr Core's line. */
export const transactionSendCommand = (): Command =>
  addNodeFlags(
    new Command('transaction:send')
      .description('Send transaction to the local node (txpool_postTransaction).')
      .argument('<transaction>', 'A transaction to be sent to the node encoded as hex string'),
  ).action(async (hex: string, options: NodeOptions) => {
    const [{ parseTransaction }, { withNode }] = await Promise.all([
      import('./encoded.js'),
      import('../node_client.js'),
    ]);
    parseTransaction(hex);
    const { transactionId } = (await withNode(options, (client) =>
      client.invoke('txpool_postTransaction', { transaction: hex.toLowerCase() }),
    )) as { transactionId: string };
    process.stdout.write(`Transaction with id: '${transactionId}' received by node.\n`);
  });
