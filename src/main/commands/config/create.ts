import { Command } from 'commander';

interface CreateOptions {
  output: string;
  label: string;
  chainId: string;
}

/**
 * The config klayr-commander's config:create writes: its default application config, which is the
 * framework's (config/defaults.ts) without the keys klayr-commander's copy lacks, and log level debug.
 */
const klayrDefaultConfig = async (dataPath: string, chainID: string) => {
  const { defaultConfig } = await import('../../config/defaults.js');
  const { system, rpc, network, transactionPool, genesis } = defaultConfig();
  return {
    system: {
      dataPath,
      keepEventsForHeights: system.keepEventsForHeights,
      keepInclusionProofsForHeights: system.keepInclusionProofsForHeights,
      inclusionProofKeys: system.inclusionProofKeys,
      logLevel: 'debug',
    },
    rpc: { modes: rpc.modes, port: rpc.port, host: rpc.host, allowedMethods: ['*'] },
    network,
    transactionPool,
    genesis: {
      block: genesis.block,
      blockTime: genesis.blockTime,
      bftBatchSize: genesis.bftBatchSize,
      maxTransactionsSize: genesis.maxTransactionsSize,
      chainID,
    },
    generator: { keys: {} },
    modules: {},
    plugins: {},
  };
};

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
      const config = await klayrDefaultConfig(join(homedir(), '.klayr', options.label), options.chainId);
      process.stdout.write(`${writeOutputFile(options.output, config, 'config')}\n`);
    });
