import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DEFAULT_BLOCK_TIME, DEFAULT_NODES } from './constants.js';
import type { LocalNetworkLayout } from './layout.js';

/** What a local network is created with and keeps: later runs must not change it. */
export interface LocalNetworkSettings {
  nodes: number;
  blockTime: number;
  /**
   * The genesis validators of the network's own devnet genesis block (`--validators`); absent
   * where the nodes run the devnet's genesis block.
   */
  validators?: number;
}

/** What the network's chain starts from, in words. */
export const genesisText = (validators: number | undefined): string =>
  validators === undefined
    ? "the devnet's genesis block"
    : `a devnet genesis block with ${validators} genesis validator${validators === 1 ? '' : 's'}`;

export const readSettings = (layout: LocalNetworkLayout): LocalNetworkSettings | undefined =>
  existsSync(layout.settings) ? (JSON.parse(readFileSync(layout.settings, 'utf8')) as LocalNetworkSettings) : undefined;

export const writeSettings = (layout: LocalNetworkLayout, settings: LocalNetworkSettings): void =>
  writeFileSync(layout.settings, `${JSON.stringify(settings, null, '\t')}\n`);

/**
 * The settings of this run: the saved ones, which a flag may repeat but not change, or those
 * of a network to create.
 */
export const settingsOfRun = (
  layout: LocalNetworkLayout,
  saved: LocalNetworkSettings | undefined,
  requested: Partial<LocalNetworkSettings>,
): LocalNetworkSettings => {
  if (saved === undefined)
    return {
      nodes: requested.nodes ?? DEFAULT_NODES,
      blockTime: requested.blockTime ?? DEFAULT_BLOCK_TIME,
      ...(requested.validators !== undefined ? { validators: requested.validators } : {}),
    };
  if (requested.nodes !== undefined && requested.nodes !== saved.nodes)
    throw new Error(
      `The network at ${layout.root} has ${saved.nodes} nodes; --nodes ${requested.nodes} applies only when a network is created (give another --data-path, or remove this one)`,
    );
  if (requested.blockTime !== undefined && requested.blockTime !== saved.blockTime)
    throw new Error(
      `The network at ${layout.root} runs with ${saved.blockTime}-second blocks; --block-time ${requested.blockTime} applies only when a network is created`,
    );
  if (requested.validators !== undefined && requested.validators !== saved.validators)
    throw new Error(
      `The network at ${layout.root} runs ${genesisText(saved.validators)}; --validators ${requested.validators} applies only when a network is created`,
    );
  return saved;
};
