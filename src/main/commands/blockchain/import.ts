import { Command } from 'commander';
import { absolutePath } from '../../config/home.js';
import { DEFAULT_DATA_PATH } from '../flags.js';

/**
 * `kestrel blockchain:import <filepath>`: the blockchain data of a blockchain:export archive into
 * the data path (the node stopped); the node's own records there are kept.
 */
export const blockchainImportCommand = (): Command =>
  new Command('blockchain:import')
    .description('Import the blockchain data of a blockchain:export archive (the node must be stopped).')
    .argument('<filepath>', 'Path to the gzipped blockchain data.')
    .option('-d, --data-path <path>', 'Data path of the node.', DEFAULT_DATA_PATH)
    .option('-f, --force', 'Delete and overwrite existing blockchain data')
    .action(async (filepath: string, options: { dataPath: string; force?: boolean }) => {
      const [{ withStoppedNode }, { checkArchive, importBlockchain }] = await Promise.all([
        import('./data_path_tools.js'),
        import('./archive.js'),
      ]);
      const dataPath = absolutePath(options.dataPath);
      const archive = absolutePath(filepath);
      await checkArchive(archive);
      const height = await withStoppedNode(dataPath, 'import blockchain data', () =>
        importBlockchain(archive, dataPath, options.force === true),
      );
      process.stdout.write(`Import completed: blocks up to height ${height}.\n   ${dataPath}\n`);
    });
