import { Command } from 'commander';
import { MAX_GENESIS_VALIDATORS } from '../../network/devnet_validators.js';
import { blockTimeFlag, genesisValidatorsFlag, unprivilegedPort } from '../flags.js';

const DEFAULT_DATA_PATH = '~/.klayr/kestrel-interop';

interface InteropOptions {
  dataPath: string;
  mainchainPort: number;
  sidechainPort: number;
  blockTime?: number;
  mainchainValidators?: number;
}

/**
 * `kestrel network:interop`: a mainchain (the devnet) and a sidechain node, registered on each
 * other and relaying with the chainConnector plugin, until Ctrl-C.
 */
export const networkInteropCommand = (): Command =>
  new Command('network:interop')
    .description(
      'Create (on the first run) and start a local interop network: the devnet mainchain (04000000) and a sidechain (04000001), each registered on the other, with the chainConnector plugin relaying between them. Runs until Ctrl-C, then stops both nodes cleanly.',
    )
    .option(
      '-d, --data-path <path>',
      "Directory of the network: the two chains' data paths (mainchain/, sidechain/) and network.json.",
      DEFAULT_DATA_PATH,
    )
    .option(
      '--mainchain-port <port>',
      'JSON-RPC port (HTTP and WS) of the mainchain node.',
      unprivilegedPort('--mainchain-port'),
      7887,
    )
    .option(
      '--sidechain-port <port>',
      'JSON-RPC port (HTTP and WS) of the sidechain node.',
      unprivilegedPort('--sidechain-port'),
      7888,
    )
    .option(
      '--block-time <seconds>',
      "Block time of both chains when the network is created (default 7, the devnet's).",
      blockTimeFlag,
    )
    .option(
      '--mainchain-validators <count>',
      `When the network is created: give the mainchain a devnet genesis block of its own (the devnet's accounts, balances and 103 registered validators) whose first <count> dev validators (1 to ${MAX_GENESIS_VALIDATORS}) are its genesis validators for good, so that it finalizes within a few blocks (the devnet's own genesis block, the default, needs about 70). A later run may repeat it, not change it.`,
      genesisValidatorsFlag('--mainchain-validators'),
    )
    .action(async (options: InteropOptions) => {
      const [{ absolutePath }, { runInteropNetwork }, { startCommand }] = await Promise.all([
        import('../../config/home.js'),
        import('../../interop_network/run_network.js'),
        import('../node/start.js'),
      ]);
      const stopRequested = new Promise<string>((done) => {
        process.once('SIGINT', () => done('SIGINT'));
        process.once('SIGTERM', () => done('SIGTERM'));
      });
      // the plugin is turned on by `start`'s flag where this build has it
      const connectorFlags = startCommand().options.some((o) => o.long === '--enable-chain-connector-plugin')
        ? ['--enable-chain-connector-plugin']
        : [];
      await runInteropNetwork({
        dataPath: absolutePath(options.dataPath),
        mainchainPort: options.mainchainPort,
        sidechainPort: options.sidechainPort,
        ...(options.blockTime !== undefined ? { blockTime: options.blockTime } : {}),
        ...(options.mainchainValidators !== undefined ? { mainchainValidators: options.mainchainValidators } : {}),
        connectorFlags,
        progress: (line) => process.stdout.write(`${line}\n`),
        stopRequested,
      });
    });
