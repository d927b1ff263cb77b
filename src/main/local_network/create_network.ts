import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { devnetKeys } from '../interop_network/create_network.js';
import type { LocalNetworkLayout } from './layout.js';
import { nodeDataPath, nodeKeysFile } from './layout.js';
import { validatorShare } from './node_config.js';
import type { LocalNetworkSettings } from './settings.js';
import { writeSettings } from './settings.js';

/**
 * Creates the network under an empty (or new) directory: one data path per node holding its share
 * of the devnet validators' keys (mode 600), then network.json, written last: a directory without
 * it is not a network. Each node saves the devnet's config under its data path on its first start.
 * A failure removes what was written.
 */
export const createLocalNetwork = (layout: LocalNetworkLayout, settings: LocalNetworkSettings): void => {
  if (existsSync(layout.root) && readdirSync(layout.root).length > 0)
    throw new Error(
      `${layout.root} is not empty and holds no local network (no network.json): give a new or empty directory as --data-path`,
    );
  mkdirSync(layout.root, { recursive: true });
  const keys = devnetKeys();
  const made: string[] = [];
  try {
    for (let i = 0; i < settings.nodes; i++) {
      const dataPath = nodeDataPath(layout, i);
      mkdirSync(dataPath);
      made.push(dataPath);
      writeFileSync(
        nodeKeysFile(dataPath),
        `${JSON.stringify({ keys: validatorShare(keys, i, settings.nodes) }, null, '\t')}\n`,
        { mode: 0o600 },
      );
    }
    writeSettings(layout, settings);
  } catch (e) {
    for (const dataPath of made) rmSync(dataPath, { recursive: true, force: true });
    throw e;
  }
};
