import { existsSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createLocalNetwork } from './create_network.js';
import type { LocalNetworkLayout } from './layout.js';
import { nodeDataPath, nodeKeysFile, nodeOverlayFile } from './layout.js';
import type { RunPorts } from './node_config.js';
import { nodeOverlayConfig, nodeRPCPort } from './node_config.js';
import type { LocalNetworkSettings } from './settings.js';
import { readSettings, settingsOfRun } from './settings.js';

/** The highest port a flag may name. */
const MAX_PORT = 65535;

/** Refuses ports this run cannot use with `nodes` nodes: the RPC ports past 65535, the P2P port among the RPC ones. */
export const checkPorts = (nodes: number, ports: RunPorts): void => {
  const lastRPCPort = nodeRPCPort(nodes - 1, ports);
  if (lastRPCPort > MAX_PORT)
    throw new Error(
      `--rpc-port ${ports.firstRPCPort} leaves no room for ${nodes} nodes: node ${nodes - 1} would serve on port ${lastRPCPort} (the highest is ${MAX_PORT})`,
    );
  // node 0's P2P address, 127.0.0.1, is where every node serves RPC
  if (ports.p2pPort >= ports.firstRPCPort && ports.p2pPort <= lastRPCPort)
    throw new Error(
      `--p2p-port ${ports.p2pPort} is one of the nodes' RPC ports (${ports.firstRPCPort}-${lastRPCPort} on 127.0.0.1, where node 0 listens for peers too)`,
    );
};

export interface PreparedNetwork {
  settings: LocalNetworkSettings;
  created: boolean;
  /** The nodes' data paths, node 0 first. */
  dataPaths: string[];
}

/**
 * The network of this run: the one saved at the data path (whose node count and block time the
 * flags may not change) or a new one, checked before anything is written. Then each node's
 * overlay config is written with this run's ports.
 */
export const prepareLocalNetwork = (
  layout: LocalNetworkLayout,
  requested: Partial<LocalNetworkSettings>,
  ports: RunPorts,
): PreparedNetwork => {
  const saved = readSettings(layout);
  const settings = settingsOfRun(layout, saved, requested);
  checkPorts(settings.nodes, ports);
  const dataPaths = Array.from({ length: settings.nodes }, (_, i) => nodeDataPath(layout, i));
  if (saved === undefined) createLocalNetwork(layout, settings);
  for (const dataPath of dataPaths)
    if (!existsSync(nodeKeysFile(dataPath)))
      throw new Error(
        `The network at ${layout.root} lacks ${nodeKeysFile(dataPath)}: remove the directory to create the network again`,
      );
  for (const [i, dataPath] of dataPaths.entries()) {
    const overlay = nodeOverlayConfig(i, settings, ports, basename(nodeKeysFile(dataPath)));
    writeFileSync(nodeOverlayFile(dataPath), `${JSON.stringify(overlay, null, '\t')}\n`);
  }
  return { settings, created: saved === undefined, dataPaths };
};
