import { Command } from 'commander';
import { absolutePath } from '../../config/home.js';
import { DEFAULT_DATA_PATH } from '../flags.js';

/**
 * `kestrel blockchain:hash`: the SHA-256 of the block store (storage/chain_data.ts blockStoreHash):
 * equal on two Kestrel nodes with the same blocks. It reads one consistent state, so the node may
 * keep running.
 */
export const blockchainHashCommand = (): Command =>
  new Command('blockchain:hash')
    .description('Print the SHA-256 of the stored blocks (the same on nodes with the same blocks).')
    .option('-d, --data-path <path>', 'Data path of the node.', DEFAULT_DATA_PATH)
    .action(async (options: { dataPath: string }) => {
      const chainData = await import('../../../storage/chain_data.js');
      const dbs = chainData.openExisting(absolutePath(options.dataPath), { readOnly: true });
      try {
        process.stdout.write(`${chainData.blockStoreHash(dbs).toString('hex')}\n`);
      } finally {
        await chainData.closeDatabases(dbs);
      }
    });
