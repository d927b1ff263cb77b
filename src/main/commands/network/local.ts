import { Command, InvalidArgumentError } from 'commander';
import {
  DEFAULT_BLOCK_TIME,
  DEFAULT_DATA_PATH,
  DEFAULT_FIRST_RPC_PORT,
  DEFAULT_NODES,
  DEFAULT_P2P_PORT,
  MAX_NODES,
} from '../../local_network/constants.js';
import { MAX_GENESIS_VALIDATORS } from '../../network/devnet_validators.js';
import { blockTimeFlag, genesisValidatorsFlag, unprivilegedPort } from '../flags.js';

const nodeCount = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_NODES)
    throw new InvalidArgumentError(
      `--nodes must be an integer from 1 to ${MAX_NODES}: each node generates for at least one of the devnet's ${MAX_NODES} validators.`,
    );
  return n;
};

interface LocalOptions {
  dataPath: string;
  nodes?: number;
  rpcPort: number;
  p2pPort: number;
  blockTime?: number;
  validators?: number;
}

/**
 * `kestrel network:local`: N nodes of the devnet chain on this machine, the devnet validators
 * shared among them, peered over loopback addresses, until Ctrl-C.
 */
export const networkLocalCommand = (): Command =>
  new Command('network:local')
    .description(
      "Create (on the first run) and start a local network of N nodes of the devnet chain (04000000): the devnet's 103 validators are shared among the nodes (node i generates for validators i, i+N, i+2N, ...), which peer with each other, node i on 127.0.0.(i+1). Reports when every node answers, each node's height every 10 s and when finality first advances. Runs until Ctrl-C, then stops every node cleanly.",
    )
    .option(
      '-d, --data-path <path>',
      "Directory of the network: the nodes' data paths (node-0/, node-1/, ...) and network.json.",
      DEFAULT_DATA_PATH,
    )
    .option(
      '--nodes <count>',
      `Number of nodes (1 to ${MAX_NODES}) when the network is created (default ${DEFAULT_NODES}); a later run may repeat it, not change it.`,
      nodeCount,
    )
    .option(
      '--rpc-port <port>',
      'JSON-RPC port (HTTP and WS, on 127.0.0.1) of node 0; node i serves on this port + i.',
      unprivilegedPort('--rpc-port'),
      DEFAULT_FIRST_RPC_PORT,
    )
    .option(
      '--p2p-port <port>',
      'P2P port of every node, each listening on its own address 127.0.0.(i+1).',
      unprivilegedPort('--p2p-port'),
      DEFAULT_P2P_PORT,
    )
    .option(
      '--block-time <seconds>',
      `Block time of the chain when the network is created (default ${DEFAULT_BLOCK_TIME}, the devnet's; 3 at least); a later run may repeat it, not change it.`,
      blockTimeFlag,
    )
    .option(
      '--validators <count>',
      `When the network is created: run a devnet genesis block of its own (the devnet's accounts, balances and 103 registered validators) whose first <count> dev validators (1 to ${MAX_GENESIS_VALIDATORS}) are its genesis validators for good, so that finality comes within a few blocks (the devnet's own genesis block, the default, needs about 70). Node i holds validator i among them; nodes from <count> on hold none and follow without generating. A later run may repeat it, not change it.`,
      genesisValidatorsFlag('--validators'),
    )
    .action(async (options: LocalOptions) => {
      const [{ absolutePath }, { runLocalNetwork }] = await Promise.all([
        import('../../config/home.js'),
        import('../../local_network/run_network.js'),
      ]);
      const progress = (line: string): void => {
        process.stdout.write(`${line}\n`);
      };
      const stopRequested = new Promise<string>((done) => {
        let stopping = false;
        const stop = (signal: string): void => {
          // a second Ctrl-C must not kill this process before its nodes, which would leave them running
          if (stopping) progress(`${signal}: already stopping (a node that does not stop is killed after 30 s)`);
          stopping = true;
          done(signal);
        };
        process.on('SIGINT', () => stop('SIGINT'));
        process.on('SIGTERM', () => stop('SIGTERM'));
      });
      await runLocalNetwork({
        dataPath: absolutePath(options.dataPath),
        requested: {
          ...(options.nodes !== undefined ? { nodes: options.nodes } : {}),
          ...(options.blockTime !== undefined ? { blockTime: options.blockTime } : {}),
          ...(options.validators !== undefined ? { validators: options.validators } : {}),
        },
        ports: { firstRPCPort: options.rpcPort, p2pPort: options.p2pPort },
        progress,
        stopRequested,
      });
    });
