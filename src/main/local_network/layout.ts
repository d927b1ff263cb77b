import { join } from 'node:path';

/** Where `network:local` keeps its nodes under `--data-path`. */
export interface LocalNetworkLayout {
  root: string;
  /** The network's settings (node count, block time), written last when the network is created. */
  settings: string;
}

export const localNetworkLayout = (root: string): LocalNetworkLayout => ({
  root,
  settings: join(root, 'network.json'),
});

/** Node `index`'s data path (its chain, its saved devnet config under config/, its log). */
export const nodeDataPath = (layout: LocalNetworkLayout, index: number): string => join(layout.root, `node-${index}`);

/** The config file laid over node `index`'s saved config on every start (`kestrel start -c`). */
export const nodeOverlayFile = (dataPath: string): string => join(dataPath, 'local-network.json');

/** The node's share of the devnet validators (`generator.keys.fromFile` of its overlay). */
export const nodeKeysFile = (dataPath: string): string => join(dataPath, 'validator-keys.json');

/**
 * The network's own genesis block (`--validators`), under each node's config/ as `<name>.blob`. Not
 * `genesis_block.blob`: `kestrel start` refuses a data path whose file of that name is not its
 * network preset's (the devnet's), whereas a config naming its own genesis file runs that chain.
 */
export const LOCAL_GENESIS_FILE = 'local_genesis_block';
