import { Command } from 'commander';
import { absolutePath } from '../../config/home.js';
import { DEFAULT_DATA_PATH } from '../flags.js';

/**
 * `kestrel blockchain:reset`: removes the data path's blockchain data (blocks, state, events,
 * finality) and keeps the node's own records (generator keys, previously generated info, hash
 * onions, peer records), as Klayr Core keeps generator.db and node.db.
 */
export const blockchainResetCommand = (): Command =>
  new Command('blockchain:reset')
    .description('Reset the blockchain data (the node must be stopped); keys, generated info and hash onions are kept.')
    .option('-d, --data-path <path>', 'Data path of the node.', DEFAULT_DATA_PATH)
    .option('-y, --yes', 'Skip confirmation prompt.')
    .action(async (options: { dataPath: string; yes?: boolean }) => {
      const [{ withStoppedNode }, chainData, { confirm }] = await Promise.all([
        import('./data_path_tools.js'),
        import('../../../storage/chain_data.js'),
        import('../confirm.js'),
      ]);
      const dataPath = absolutePath(options.dataPath);
      if (!chainData.hasEnvironment(dataPath)) {
        process.stdout.write(`No blockchain data at ${dataPath}: nothing to reset.\n`);
        return;
      }
      await withStoppedNode(dataPath, 'reset the blockchain data', async () => {
        if (options.yes !== true && !(await confirm('Are you sure you want to reset the db?'))) {
          process.stdout.write('Nothing was changed (give --yes to skip the question).\n');
          return;
        }
        const dbs = chainData.openExisting(dataPath, { readOnly: false });
        try {
          chainData.removeChainData(dbs);
        } finally {
          await chainData.closeDatabases(dbs);
        }
        process.stdout.write('Blockchain data has been reset.\n');
      });
    });
