import { Command } from 'commander';
import { absolutePath } from '../../config/home.js';
import { DEFAULT_DATA_PATH } from '../flags.js';

/**
 * `kestrel blockchain:export`: `<output>/blockchain.tar.gz`, the data path's blockchain data in a
 * fresh environment (Kestrel's LMDB layout, not Klayr Core's RocksDB one), without the node's own
 * records. It reads one consistent state, so the node may keep running.
 */
export const blockchainExportCommand = (): Command =>
  new Command('blockchain:export')
    .description('Export the blockchain data to <output>/blockchain.tar.gz (keys and generated info are left out).')
    .option('-d, --data-path <path>', 'Data path of the node.', DEFAULT_DATA_PATH)
    .option('-o, --output <dir>', 'Directory to write blockchain.tar.gz into (default: the current directory).')
    .action(async (options: { dataPath: string; output?: string }) => {
      const { exportBlockchain } = await import('./archive.js');
      const dataPath = absolutePath(options.dataPath);
      const file = await exportBlockchain(dataPath, absolutePath(options.output ?? process.cwd()));
      process.stdout.write(`Export completed:\n   ${file}\n`);
    });
