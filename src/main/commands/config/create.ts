import { Command } from 'commander';

interface CreateOptions {
  output: string;
  label: string;
  chainId: string;
}

/** The config klayr-commander's config:create writes: its default application config. */
const klayrDefaultConfig = (dataPath: string, chainID: string) => ({
  system: {
    dataPath,
    keepEventsForHeights: 300,
    keepInclusionProofsForHeights: 300,
    inclusionProofKeys: [],
    logLevel: 'debug',
  },
  rpc: { modes: ['ipc'], port: 7887, host: '127.0.0.1', allowedMethods: ['*'] },
  network: { version: '1.0', seedPeers: [], port: 7667 },
  transactionPool: {
    maxTransactions: 4096,
    maxTransactionsPerAccount: 64,
    transactionExpiryTime: 3 * 60 * 60 * 1000,
    minEntranceFeePriority: '0',
    minReplacementFeeDifference: '10',
  },
  genesis: {
    block: { fromFile: './config/genesis_block.blob' },
    blockTime: 7,
    bftBatchSize: 53,
    maxTransactionsSize: 15 * 1024,
    chainID,
  },
  generator: { keys: {} },
  modules: {},
  plugins: {},
});

/**
 * `kestrel config:create`: `<output>/config.json`, Klayr Core's default application config for a
 * new chain (data path `~/.klayr/<label>`, the chain ID given), as klayr-commander writes it.
 */
export const configCreateCommand = (): Command =>
  new Command('config:create')
    .description('Creates network configuration file.')
    .option('-o, --output <dir>', 'Directory where the config file is saved (default: the current directory).', '.')
    .option('-l, --label <label>', 'App Label', 'beta-sdk-app')
    .requiredOption('-i, --chain-id <hex>', 'ChainID in hex format. For example, Klayr mainnet mainchain is 00000000')
    .action(async (options: CreateOptions) => {
      const [{ existsSync }, { homedir }, { join }, { outputFilePath, writeOutputFile }, { confirm }] =
        await Promise.all([
          import('node:fs'),
          import('node:os'),
          import('node:path'),
          import('../output_file.js'),
          import('../confirm.js'),
        ]);
      if (/\s/.test(options.output) || /^([a-z]+)(([A-Z]([a-z]+))+)$/.test(options.output))
        throw new Error(`Invalid name: the output directory "${options.output}" has whitespace or is in camelCase.`);
      if (!/^[0-9a-fA-F]{8}$/.test(options.chainId))
        throw new Error('Invalid chain ID format. ChainID must be in hex format with 8 characters');
      if (
        existsSync(outputFilePath(options.output, 'config')) &&
        !(await confirm('A config file already exists at the given location. Do you want to overwrite it?'))
      )
        throw new Error('Operation cancelled, config file already present at the desired location');
      const config = klayrDefaultConfig(join(homedir(), '.klayr', options.label), options.chainId);
      process.stdout.write(`${writeOutputFile(options.output, config, 'config')}\n`);
    });
