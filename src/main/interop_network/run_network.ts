import { existsSync } from 'node:fs';
import type { RPCClient } from '../../rpc/client.js';
import { assertPortFree } from '../child_nodes/port_check.js';
import { startChainProcess } from '../child_nodes/process.js';
import { connectWhenReady, isMethodNotFound, nodeInfo } from '../child_nodes/rpc.js';
import { superviseNodes } from '../child_nodes/supervise.js';
import { devnetKeys } from '../network/devnet_genesis.js';
import { reportActivation } from './activation.js';
import { setPorts } from './chain_config.js';
import { MAINCHAIN_ID, RELAYER_ACCOUNT_INDEX, SIDECHAIN_ID, USER_ACCOUNT_INDEX } from './constants.js';
import type { NetworkSettings } from './create_network.js';
import { createNetwork, readSettings, sidechainKeys } from './create_network.js';
import type { NetworkLayout } from './layout.js';
import { networkLayout } from './layout.js';
import { registerChains } from './register.js';

export interface InteropNetworkOptions {
  dataPath: string;
  mainchainPort: number;
  sidechainPort: number;
  /** Block time of both chains, used when the network is created. */
  blockTime?: number;
  /** The mainchain's genesis validators, used when the network is created (absent: the devnet's genesis block). */
  mainchainValidators?: number;
  /** `kestrel start` flags that turn the chainConnector plugin on (none where this build has no plugin). */
  connectorFlags: readonly string[];
  progress: (line: string) => void;
  /** Resolves when the network is asked to stop (SIGINT/SIGTERM). */
  stopRequested: Promise<string>;
}

/** Time a node gets to stop cleanly on SIGINT before it is killed. */
const STOP_GRACE_MS = 30_000;
/** A node's first start processes its genesis block (about 4 s for the devnet's 103 proofs of possession on two cores). */
const READY_TIMEOUT_MS = 120_000;
const DEFAULT_BLOCK_TIME = 7;
/** Each chain's P2P server, on a loopback address of its own (no peers: each chain is one node). */
const MAINCHAIN_P2P_HOST = '127.0.0.2';
const SIDECHAIN_P2P_HOST = '127.0.0.3';

const mainchainGenesisText = (validators: number | undefined): string =>
  validators === undefined
    ? "the devnet's genesis block"
    : `a devnet genesis block of its own with ${validators} genesis validator${validators === 1 ? '' : 's'}`;

const prepare = async (layout: NetworkLayout, options: InteropNetworkOptions): Promise<NetworkSettings> => {
  const saved = readSettings(layout);
  if (saved !== undefined) {
    if (options.blockTime !== undefined && options.blockTime !== saved.blockTime) {
      throw new Error(
        `The network at ${layout.root} runs with ${saved.blockTime}-second blocks; --block-time ${options.blockTime} applies only when a network is created`,
      );
    }
    if (options.mainchainValidators !== undefined && options.mainchainValidators !== saved.mainchainValidators) {
      throw new Error(
        `The network's mainchain at ${layout.root} runs ${mainchainGenesisText(saved.mainchainValidators)}; --mainchain-validators ${options.mainchainValidators} applies only when a network is created`,
      );
    }
    for (const path of [layout.mainchain, layout.sidechain])
      if (!existsSync(path))
        throw new Error(
          `The network at ${layout.root} lacks ${path}: remove the directory to create the network again`,
        );
    options.progress(`Network at ${layout.root}: ${saved.blockTime}-second blocks`);
    return saved;
  }
  options.progress(`Creating the network at ${layout.root}`);
  const settings = await createNetwork(layout, options.blockTime ?? DEFAULT_BLOCK_TIME, options.mainchainValidators);
  const genesis =
    settings.mainchainValidators === undefined ? '' : `, ${mainchainGenesisText(settings.mainchainValidators)}`;
  options.progress(`  mainchain ${MAINCHAIN_ID} (Kestrel's devnet${genesis}): ${layout.mainchain}`);
  options.progress(
    `  sidechain ${SIDECHAIN_ID}: ${layout.sidechain} (genesis block, keys and passphrase under config/)`,
  );
  return settings;
};

const authorizeConnector = async (
  name: string,
  client: RPCClient,
  password: string,
  progress: (line: string) => void,
): Promise<void> => {
  try {
    await client.invoke('chainConnector_authorize', { password, enable: true });
    progress(`chainConnector of the ${name}: relayer key enabled`);
  } catch (e) {
    progress(
      isMethodNotFound(e)
        ? `chainConnector of the ${name}: not served by this node (no CCUs will be relayed)`
        : `chainConnector of the ${name}: authorize failed: ${(e as Error).message}`,
    );
  }
};

/**
 * Creates the network on its first run, starts both nodes, registers each chain on the other
 * (once), enables both chainConnectors, then runs until a stop is requested or a node exits.
 * Both nodes are stopped cleanly on the way out, whatever the reason; an unexpected exit of a
 * node is an error (superviseNodes).
 */
export const runInteropNetwork = async (options: InteropNetworkOptions): Promise<void> => {
  const { progress } = options;
  let stopSignal: string | undefined;
  void options.stopRequested.then((signal) => (stopSignal = signal));
  if (options.mainchainPort === options.sidechainPort)
    throw new Error(`--mainchain-port and --sidechain-port must differ (both are ${options.mainchainPort})`);
  await assertPortFree(options.mainchainPort, '--mainchain-port');
  await assertPortFree(options.sidechainPort, '--sidechain-port');
  const layout = networkLayout(options.dataPath);
  const settings = await prepare(layout, options);
  setPorts(layout.mainchain, options.mainchainPort, options.sidechainPort, MAINCHAIN_P2P_HOST);
  setPorts(layout.sidechain, options.sidechainPort, options.mainchainPort, SIDECHAIN_P2P_HOST);
  if (stopSignal !== undefined) {
    progress(`${stopSignal}: the network is ready, its nodes not started`);
    return;
  }

  let finished = false;
  const clients: RPCClient[] = [];
  const mainchain = startChainProcess('mainchain node', layout.mainchain, options.connectorFlags);
  const sidechain = startChainProcess('sidechain node', layout.sidechain, options.connectorFlags);
  progress(
    `Starting the mainchain node (pid ${mainchain.pid}, log ${mainchain.logFile}) and the sidechain node (pid ${sidechain.pid}, log ${sidechain.logFile})`,
  );

  const startUp = async (): Promise<void> => {
    const [main, side] = await Promise.all([
      connectWhenReady(mainchain, options.mainchainPort, READY_TIMEOUT_MS),
      connectWhenReady(sidechain, options.sidechainPort, READY_TIMEOUT_MS),
    ]);
    clients.push(main, side);
    for (const [name, client, port] of [
      ['mainchain', main, options.mainchainPort],
      ['sidechain', side, options.sidechainPort],
    ] as const) {
      const info = await nodeInfo(client);
      progress(
        `${name} ${info.chainID} at height ${info.height}: JSON-RPC on http://127.0.0.1:${port}/rpc and ws://127.0.0.1:${port}/rpc-ws`,
      );
    }
    await authorizeConnector('mainchain', main, settings.relayerPassword, progress);
    await authorizeConnector('sidechain', side, settings.relayerPassword, progress);
    const devnet = devnetKeys();
    const sideKeys = sidechainKeys(layout.sidechain);
    await registerChains({
      mainchain: main,
      sidechain: side,
      mainchainSender: devnet[USER_ACCOUNT_INDEX],
      sidechainSender: sideKeys[USER_ACCOUNT_INDEX],
      sidechainValidators: sideKeys,
      timeoutMs: settings.blockTime * 5_000,
      progress,
    });
    progress(
      `Accounts: mainchain ${devnet[USER_ACCOUNT_INDEX].address} (the devnet's passphrase), sidechain ${sideKeys[USER_ACCOUNT_INDEX].address} (passphrase in ${layout.sidechain}/config/passphrase.json); relayers ${devnet[RELAYER_ACCOUNT_INDEX].address} and ${sideKeys[RELAYER_ACCOUNT_INDEX].address}`,
    );
    progress('The network is running. Press Ctrl-C to stop both nodes.');
    void reportActivation(
      [
        { on: main, partnerID: SIDECHAIN_ID, what: `Sidechain ${SIDECHAIN_ID} on the mainchain` },
        { on: side, partnerID: MAINCHAIN_ID, what: `Mainchain ${MAINCHAIN_ID} on the sidechain` },
      ],
      settings.blockTime * 1000,
      () => finished,
      progress,
    );
  };

  await superviseNodes({
    nodes: [mainchain, sidechain],
    startUp,
    stopRequested: options.stopRequested,
    nodesText: 'both nodes',
    signal: 'SIGINT',
    graceMs: STOP_GRACE_MS,
    progress,
    onEnd: async () => {
      finished = true;
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    },
  });
};
