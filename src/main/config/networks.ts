import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { required } from '../../lib/required.js';
import type { ApplicationConfig } from './types.js';

/**
 * Networks embedded in Kestrel: the preset config and its data files, as Klayr Core ships them
 * (klayr-core `config/<network>/`). Live networks' genesis blocks are kept gzipped.
 */
export const NETWORKS = ['devnet', 'testnet', 'mainnet'] as const;
export type NetworkName = (typeof NETWORKS)[number];

export const networkDir = (network: NetworkName): string =>
  fileURLToPath(new URL(`../../../../src/main/network/${network}/`, import.meta.url));

/**
 * The network's preset config (Klayr Core's config/<network>/config.json, kept verbatim)
 * with its file references pointed at the embedded copies.
 */
export const networkPreset = (network: string): Partial<ApplicationConfig> => {
  if (!(NETWORKS as readonly string[]).includes(network)) {
    throw new Error(`Unknown network "${network}". Available networks: ${NETWORKS.join(', ')}`);
  }
  const dir = networkDir(network as NetworkName);
  const preset = JSON.parse(readFileSync(`${dir}config.json`, 'utf8')) as Omit<Partial<ApplicationConfig>, 'system'> & {
    system?: Record<string, unknown>;
  };
  const { dataPath: _ignored, ...system } = preset.system ?? {}; // the data path comes from Kestrel's default or --data-path
  return {
    ...preset,
    system: system as Partial<ApplicationConfig['system']> as ApplicationConfig['system'],
    genesis: {
      ...required(preset.genesis, `The genesis section of ${dir}config.json`),
      block: {
        fromFile: existsSync(`${dir}genesis_block.blob`) ? `${dir}genesis_block.blob` : `${dir}genesis_block.blob.gz`,
      },
    },
    // only the devnet ships validator keys
    ...(existsSync(`${dir}dev-validators.json`)
      ? { generator: { keys: { fromFile: `${dir}dev-validators.json` } } }
      : {}),
  };
};
