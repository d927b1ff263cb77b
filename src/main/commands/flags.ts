import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import type { ConfigFlags, LogLevel } from '../config/index.js';

const LOG_LEVELS: LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'none'];

const port = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('must be an integer port between 1 and 65535.');
  return n;
};

/** Klayr Core's config-shaping flags, shared by every command that builds a node config. */
export const addConfigFlags = (command: Command): Command =>
  command
    .option('-n, --network <network>', 'Default network config to use (devnet is embedded).', 'devnet')
    .option('-d, --data-path <path>', 'Directory path to specify where node data will be stored.')
    .option('-c, --config <file>', 'File path to a custom config; it overrides the network preset (or the config saved under the data path).')
    .option('--api-ipc', 'Enable IPC communication (adds "ipc" to rpc.modes).')
    .option('--api-ws', 'Enable WebSocket communication (adds "ws" to rpc.modes).')
    .option('--api-http', 'Enable HTTP communication (adds "http" to rpc.modes).')
    .option('--api-port <port>', 'Port to be used for the WS and HTTP API (rpc.port).', port)
    .option('--api-host <host>', 'Host to be used for the WS and HTTP API (rpc.host).')
    .addOption(new Option('-l, --log <level>', 'Log level (system.logLevel).').choices(LOG_LEVELS));

export const configFlagsOf = (options: Record<string, unknown>): ConfigFlags => options as ConfigFlags;
