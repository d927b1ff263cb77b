import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import { freePort } from './ports.js';

/**
 * A test node's P2P server on loopback and a port of its own (Klayr's default is 0.0.0.0:7667,
 * which two nodes of concurrent test files would both claim), with no seed peers: a live preset's
 * seeds are never dialled from a test.
 */
export const localP2P = async <C extends Pick<ApplicationConfig, 'network'>>(
  config: C,
  host = '127.0.0.1',
): Promise<C> => {
  config.network = { ...config.network, host, port: await freePort(), seedPeers: [] };
  return config;
};

/**
 * `kestrel start` arguments with the P2P server on 127.0.0.1 and a free port: the `-c` config file
 * given (or a new one) with network.host and network.port laid over it.
 */
export const localP2PArgs = async (args: readonly string[]): Promise<string[]> => {
  const out = [...args];
  const at = out.findIndex((a) => a === '-c' || a === '--config');
  const given = at >= 0 ? out[at + 1] : undefined;
  const config = given === undefined ? {} : (JSON.parse(readFileSync(given, 'utf8')) as Record<string, unknown>);
  const network = { ...((config.network as Record<string, unknown> | undefined) ?? {}) };
  config.network = { ...network, host: '127.0.0.1', port: await freePort(), seedPeers: [] };
  // beside the given file: its relative paths stay right
  const dir = given === undefined ? mkdtempSync(join(tmpdir(), 'kestrel-p2p-')) : dirname(given);
  const file = join(dir, `p2p-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  if (at >= 0) out[at + 1] = file;
  else out.push('-c', file);
  return out;
};
