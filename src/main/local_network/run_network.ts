import type { RPCClient } from '../../rpc/client.js';
import { assertPortFree } from '../child_nodes/port_check.js';
import type { ChainProcess } from '../child_nodes/process.js';
import { startChainProcess } from '../child_nodes/process.js';
import { connectWhenReady, nodeInfo, rpcWsURL } from '../child_nodes/rpc.js';
import { superviseNodes } from '../child_nodes/supervise.js';
import { localNetworkLayout, nodeOverlayFile } from './layout.js';
import { monitorNetwork } from './monitor.js';
import type { RunPorts } from './node_config.js';
import { nodeHost, nodeRPCPort, nodesWithoutGenesisValidator } from './node_config.js';
import { checkPorts, prepareLocalNetwork } from './prepare.js';
import type { LocalNetworkSettings } from './settings.js';
import { genesisText, readSettings, settingsOfRun } from './settings.js';

export interface LocalNetworkOptions {
  dataPath: string;
  /** Node count, block time and genesis validators, used when the network is created (a saved network keeps its own). */
  requested: Partial<LocalNetworkSettings>;
  ports: RunPorts;
  progress: (line: string) => void;
  /** Resolves when the network is asked to stop (SIGINT/SIGTERM). */
  stopRequested: Promise<string>;
}

/** Time a node gets to stop cleanly on SIGTERM before it is killed. */
const STOP_GRACE_MS = 30_000;
/** A node's first start processes the devnet genesis block (about 4 s on two cores, longer with several nodes at once). */
const READY_TIMEOUT_MS = 180_000;
const STATUS_INTERVAL_MS = 10_000;
const FINALITY_POLL_MS = 1_000;

/** Refuses this run's ports where something listens on them already, before anything is written. */
const checkPortsFree = async (nodes: number, ports: RunPorts): Promise<void> => {
  for (let i = 0; i < nodes; i++) {
    await assertPortFree(nodeRPCPort(i, ports), `--rpc-port: node ${i}'s JSON-RPC`);
    await assertPortFree(ports.p2pPort, `--p2p-port: node ${i}'s P2P`, nodeHost(i));
  }
};

/**
 * Creates the network on its first run, starts its nodes, reports when all answer, then reports
 * their heights and the first advance of finality until a stop is requested or a node exits. All
 * nodes are stopped cleanly on the way out, whatever the reason; an unexpected exit of a node is an
 * error (superviseNodes).
 */
export const runLocalNetwork = async (options: LocalNetworkOptions): Promise<void> => {
  const { progress, ports } = options;
  let stopSignal: string | undefined;
  void options.stopRequested.then((signal) => (stopSignal = signal));
  const layout = localNetworkLayout(options.dataPath);
  // every check before anything is written
  const { nodes } = settingsOfRun(layout, readSettings(layout), options.requested);
  checkPorts(nodes, ports);
  await checkPortsFree(nodes, ports);
  const { settings, created, dataPaths } = prepareLocalNetwork(layout, options.requested, ports);
  progress(
    `${created ? 'Created the network at' : 'Network at'} ${layout.root}: ${settings.nodes} nodes of the devnet chain${settings.validators === undefined ? '' : ` (${genesisText(settings.validators)})`}, ${settings.blockTime}-second blocks`,
  );
  const followers =
    settings.validators === undefined ? [] : nodesWithoutGenesisValidator(settings.nodes, settings.validators);
  if (followers.length > 0)
    progress(
      `Node${followers.length === 1 ? '' : 's'} ${followers.join(', ')} hold${followers.length === 1 ? 's' : ''} no genesis validator's key: ${followers.length === 1 ? 'it follows' : 'they follow'} the chain without generating`,
    );
  if (stopSignal !== undefined) {
    progress(`${stopSignal}: the network is ready, its nodes not started`);
    return;
  }

  const startedAt = Date.now();
  const nodeProcesses: ChainProcess[] = [];
  for (const [i, dataPath] of dataPaths.entries()) {
    const node = startChainProcess(`node ${i}`, dataPath, ['-c', nodeOverlayFile(dataPath)]);
    nodeProcesses.push(node);
    progress(`Starting node ${i} (pid ${node.pid}, log ${node.logFile})`);
  }
  const clients: RPCClient[] = [];
  const monitor = new AbortController();

  const startUp = async (): Promise<void> => {
    clients.push(
      ...(await Promise.all(
        nodeProcesses.map((node, i) => connectWhenReady(node, nodeRPCPort(i, ports), READY_TIMEOUT_MS)),
      )),
    );
    const infos = await Promise.all(clients.map(nodeInfo));
    infos.forEach((info, i) => {
      const port = nodeRPCPort(i, ports);
      progress(
        `node ${i} at height ${info.height}: JSON-RPC on http://127.0.0.1:${port}/rpc and ${rpcWsURL(port)}, P2P on ${nodeHost(i)}:${ports.p2pPort}`,
      );
    });
    progress(
      `The network is up: all ${settings.nodes} nodes answer (${Math.round((Date.now() - startedAt) / 1000)} s). Press Ctrl-C to stop them.`,
    );
    void monitorNetwork({
      clients,
      startedAt,
      finalizedAtStart: infos[0]?.finalizedHeight ?? 0,
      statusIntervalMs: STATUS_INTERVAL_MS,
      pollIntervalMs: FINALITY_POLL_MS,
      progress,
      signal: monitor.signal,
    });
  };

  await superviseNodes({
    nodes: nodeProcesses,
    startUp,
    stopRequested: options.stopRequested,
    nodesText: `all ${settings.nodes} nodes`,
    signal: 'SIGTERM',
    graceMs: STOP_GRACE_MS,
    progress,
    onEnd: async () => {
      monitor.abort();
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    },
  });
};
