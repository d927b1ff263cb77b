import { Command, InvalidArgumentError } from 'commander';
import { positiveInteger } from '../flags.js';

const DEFAULT_DATA_PATH = '~/.klayr/kestrel-interop';

const port =
  (flag: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1024 || n > 65535)
      throw new InvalidArgumentError(
        `${flag} must be an integer port between 1024 and 65535 (Klayr's rpc.port range).`,
      );
    return n;
  };

const blockTime = (value: string): number => {
  const n = positiveInteger(value);
  if (n < 3) throw new InvalidArgumentError("--block-time must be at least 3 seconds (the config schema's minimum).");
  return n;
};

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
      port('--mainchain-port'),
      7887,
    )
    .option(
      '--sidechain-port <port>',
      'JSON-RPC port (HTTP and WS) of the sidechain node.',
      port('--sidechain-port'),
      7888,
    )
    .option(
      '--block-time <seconds>',
      "Block time of both chains when the network is created (default 7, the devnet's).",
      blockTime,
    )
    .action(async (options: { dataPath: string; mainchainPort: number; sidechainPort: number; blockTime?: number }) => {
      const [{ resolve }, { expandHome }, { runInteropNetwork }, { startCommand }] = await Promise.all([
        import('node:path'),
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
        dataPath: resolve(expandHome(options.dataPath)),
        mainchainPort: options.mainchainPort,
        sidechainPort: options.sidechainPort,
        ...(options.blockTime !== undefined ? { blockTime: options.blockTime } : {}),
        connectorFlags,
        progress: (line) => process.stdout.write(`${line}\n`),
        stopRequested,
      });
    });
