import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ApplicationConfig } from './types.js';

/** Networks embedded in Kestrel: the preset config and its data files. */
export const NETWORKS = ['devnet'] as const;
export type NetworkName = (typeof NETWORKS)[number];

export const networkDir = (network: NetworkName): string => fileURLToPath(new URL(`../../../../src/main/network/${network}/`, import.meta.url));

/**
 * The network's preset config (Klayr Core's config/<network>/config.json, kept verbatim)
 * with its file references pointed at the embedded copies.
 */
export const networkPreset = (network: string): Partial<ApplicationConfig> => {
  if (!(NETWORKS as readonly string[]).includes(network)) {
    throw new Error(`Unknown network "${network}". Available networks: ${NETWORKS.join(', ')}`);
  }
  const dir = networkDir(network as NetworkName);
  const preset = JSON.parse(readFileSync(`${dir}config.json`, 'utf8')) as Omit<Partial<ApplicationConfig>, 'system'> & { system?: Record<string, unknown> };
  const { dataPath: _ignored, ...system } = preset.system ?? {}; // the data path comes from Kestrel's default or --data-path
  return {
    ...preset,
    system: system as Partial<ApplicationConfig['system']> as ApplicationConfig['system'],
    genesis: { ...preset.genesis!, block: { fromFile: `${dir}genesis_block.blob` } },
    generator: { keys: { fromFile: `${dir}dev-validators.json` } },
  };
};
