/**
 * Flags and argument parsers shared by the commands. This module and every command module load
 * only commander: what a command runs (storage, RPC, crypto, the node) is imported inside its action,
 * so `kestrel --version` and `kestrel <command> --help` start without it.
 */

import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import type { ConfigFlags, LogLevel } from '../config/index.js';
import { MAX_GENESIS_VALIDATORS } from '../network/devnet_validators.js';

const LOG_LEVELS: LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'none'];

const port = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new InvalidArgumentError('must be an integer port between 1 and 65535.');
  return n;
};

/** `ip:port,ip:port`, each IP an IPv4 address or a DNS name, as Klayr Core's --seed-peers. */
export const seedPeers = (value: string): { ip: string; port: number }[] =>
  value
    .split(',')
    .filter((entry) => entry.trim() !== '')
    .map((entry) => {
      const at = entry.trim().lastIndexOf(':');
      if (at <= 0) throw new InvalidArgumentError(`"${entry}" is not in the form ip:port.`);
      const ip = entry.trim().slice(0, at);
      const peerPort = Number(entry.trim().slice(at + 1));
      if (!Number.isInteger(peerPort) || peerPort < 1 || peerPort > 65535)
        throw new InvalidArgumentError(`"${entry}" has no port between 1 and 65535.`);
      return { ip, port: peerPort };
    });

export const nonNegativeInteger = (value: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('must be a non-negative integer.');
  return n;
};

export const positiveInteger = (value: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive integer.');
  return n;
};

/** A port a local network's node may listen on without privileges: 1024–65535 (Klayr's rpc.port range). */
export const unprivilegedPort =
  (flag: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1024 || n > 65535)
      throw new InvalidArgumentError(
        `${flag} must be an integer port between 1024 and 65535 (Klayr's rpc.port range).`,
      );
    return n;
  };

/** `--block-time` of a network a command creates: whole seconds, 3 at least (the config schema's minimum). */
export const blockTimeFlag = (value: string): number => {
  const n = positiveInteger(value);
  if (n < 3) throw new InvalidArgumentError("--block-time must be at least 3 seconds (the config schema's minimum).");
  return n;
};

/** The genesis validators of a devnet genesis block a command creates: 1 to 51 (Klayr's PoS genesis rule on the devnet). */
export const genesisValidatorsFlag =
  (flag: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > MAX_GENESIS_VALIDATORS)
      throw new InvalidArgumentError(
        `${flag} must be an integer from 1 to ${MAX_GENESIS_VALIDATORS}: Klayr's PoS refuses more genesis validators than its ${MAX_GENESIS_VALIDATORS} active validators.`,
      );
    return n;
  };

export const uint32 =
  (name: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff)
      throw new InvalidArgumentError(`${name} must be an integer between 0 and 4294967295.`);
    return n;
  };

export const uint64 = (value: string): bigint => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer.');
  return BigInt(value);
};

/** The key derivation path of an account's first key (Klayr Core's default). */
export const ACCOUNT_KEY_PATH = "m/44'/134'/0'";

export const cipherOption = (description = 'Cipher.'): Option =>
  new Option('--cipher <cipher>', description).choices(['aes-128-gcm', 'aes-256-gcm']).default('aes-128-gcm');

/** Klayr Core's config-shaping flags, shared by every command that builds a node config, with Klayr Core's environment variables. */
export const addConfigFlags = (command: Command): Command =>
  command
    .addOption(
      new Option(
        '-n, --network <network>',
        'Default network config to use: devnet, testnet or mainnet (embedded as Klayr Core ships them).',
      )
        .default('devnet')
        .env('KLAYR_NETWORK'),
    )
    .addOption(
      new Option('-d, --data-path <path>', 'Directory path to specify where node data will be stored.').env(
        'KLAYR_DATA_PATH',
      ),
    )
    .addOption(
      new Option(
        '-c, --config <file>',
        'File path to a custom config; it overrides the network preset (or the config saved under the data path).',
      ).env('KLAYR_CONFIG_FILE'),
    )
    .option(
      '--api-ipc',
      'Enable IPC communication; the --api-* flags given are rpc.modes (as Klayr Core). Environment variable: KLAYR_API_IPC.',
    )
    .option('--api-ws', 'Enable WebSocket communication (see --api-ipc). Environment variable: KLAYR_API_WS.')
    .option('--api-http', 'Enable HTTP communication (see --api-ipc). Environment variable: KLAYR_API_HTTP.')
    .addOption(
      new Option('--api-port <port>', 'Port to be used for the WS and HTTP API (rpc.port).')
        .argParser(port)
        .env('KLAYR_API_WS_PORT'),
    )
    .addOption(
      new Option('--api-host <host>', 'Host to be used for the WS and HTTP API (rpc.host).').env('KLAYR_API_HOST'),
    )
    .addOption(
      new Option('-p, --port <port>', 'Open port for the peer to peer incoming connections (network.port).')
        .argParser(port)
        .env('KLAYR_PORT'),
    )
    .addOption(
      new Option(
        '--seed-peers <peers>',
        'Seed peers to initially connect to, as comma separated "ip:port"; the IP can be a DNS name (network.seedPeers).',
      )
        .argParser(seedPeers)
        .env('KLAYR_SEED_PEERS'),
    )
    .addOption(
      new Option('-l, --log <level>', 'Log level (system.logLevel).').choices(LOG_LEVELS).env('KLAYR_LOG_LEVEL'),
    );

/** Klayr Core's (oclif's) reading of a boolean flag's environment variable: an empty one is not set. */
const envFlag = (name: string): boolean | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : /^(true|1|yes|y)$/.test(value);
};

/** The parsed flags as loadConfig takes them; the boolean API flags not given fall back to Klayr Core's environment variables. */
export const configFlagsOf = (options: Record<string, unknown>): ConfigFlags =>
  ({
    ...options,
    apiIpc: options.apiIpc ?? envFlag('KLAYR_API_IPC'),
    apiWs: options.apiWs ?? envFlag('KLAYR_API_WS'),
    apiHttp: options.apiHttp ?? envFlag('KLAYR_API_HTTP'),
  }) as ConfigFlags;

export interface NodeOptions {
  dataPath: string;
  ws?: string;
  pretty?: boolean;
}

/** Kestrel's default data path (config system.dataPath). */
export const DEFAULT_DATA_PATH = '~/.klayr/kestrel';

/** The flags every command that talks to a running node takes. */
export const addNodeFlags = (command: Command): Command =>
  command
    .addOption(
      new Option('-d, --data-path <path>', 'Data path of the node to reach over IPC.')
        .default(DEFAULT_DATA_PATH)
        .env('KLAYR_DATA_PATH'),
    )
    .option('--ws <url>', 'Reach the node over WebSocket instead, e.g. ws://127.0.0.1:7887/rpc-ws')
    .option('--pretty', 'Indent the JSON output.');

/** As Klayr Core's: --offline and a node to reach exclude each other. */
export const refuseNodeFlags = (self: Command): void => {
  for (const [option, flag] of [
    ['dataPath', '--data-path'],
    ['ws', '--ws'],
  ] as const)
    if (self.getOptionValueSource(option) === 'cli')
      throw new Error(`${flag}=${String(self.getOptionValue(option))} cannot also be provided when using --offline`);
};
