import { join } from 'node:path';

/** Where `network:interop` keeps its two chains under `--data-path`. */
export interface NetworkLayout {
  root: string;
  /** The mainchain node's data path (its config under config/, as `kestrel start` saves it). */
  mainchain: string;
  /** The sidechain node's data path. */
  sidechain: string;
  /** The network's own settings and secrets (mode 600): the relayer keys' password, the block time. */
  settings: string;
}

export const networkLayout = (root: string): NetworkLayout => ({
  root,
  mainchain: join(root, 'mainchain'),
  sidechain: join(root, 'sidechain'),
  settings: join(root, 'network.json'),
});
