import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { ApplicationConfig } from '../../config/types.js';
import type { LogFormat } from '../../log_format.js';
import { LOG_FORMATS } from '../../log_format.js';
import type { Logger } from '../../logger.js';
import { addConfigFlags, configFlagsOf } from '../flags.js';
import { ReportedError } from '../reported_error.js';

/** How long a refused start waits for its log lines to be written before it exits. */
const FLUSH_WAIT_MS = 2000;

/** `kestrel start`: runs a node until SIGINT/SIGTERM. */
export const startCommand = (): Command =>
  addConfigFlags(new Command('start'))
    .description(
      'Start a node: process (or reload) the genesis block, generate blocks for the validators with plain keys in generator.keys.fromFile (all 103 on the embedded devnet), and serve JSON-RPC.',
    )
    .option(
      '--overwrite-config',
      "Overwrite the config saved under the data path (<dataPath>/config) with the network's.",
    )
    .option(
      '--enable-chain-connector-plugin',
      'Enable Chain Connector Plugin (its settings: plugins.chainConnector of the config).',
    )
    .option(
      '--enable-report-misbehavior-plugin',
      'Enable ReportMisbehavior Plugin (its settings: plugins.reportMisbehavior of the config).',
    )
    .option('--enable-forger-plugin', "Klayr Core's forger plugin: accepted, not available in Kestrel (said at start).")
    .option(
      '--enable-monitor-plugin',
      "Klayr Core's monitor plugin: accepted, not available in Kestrel (said at start).",
    )
    .option('--monitor-plugin-port <port>', 'Accepted with --enable-monitor-plugin, not used.')
    .option('--monitor-plugin-whitelist <ips>', 'Accepted with --enable-monitor-plugin, not used.')
    .option('--enable-faucet-plugin', "Klayr Core's faucet plugin: accepted, not available in Kestrel (said at start).")
    .option('--faucet-plugin-port <port>', 'Accepted with --enable-faucet-plugin, not used.')
    .option(
      '--enable-dashboard-plugin',
      "Klayr Core's dashboard plugin: accepted, not available in Kestrel (said at start).",
    )
    .option('--dashboard-plugin-port <port>', 'Accepted with --enable-dashboard-plugin, not used.')
    .option(
      '-u, --genesis-block-url <url>',
      "Klayr Core's genesis block download: refused (Kestrel embeds the presets' genesis blocks; use -c with genesis.block.fromFile).",
    )
    .option('--overwrite-genesis-block', 'Refused with --genesis-block-url.')
    .addOption(
      new Option(
        '--log-format <format>',
        'Log lines as pretty text or JSON (default: pretty on a terminal, JSON otherwise).',
      ).choices(LOG_FORMATS),
    )
    .action(async (options: Record<string, unknown>) => {
      const context: StartContext = {};
      try {
        await startNode(options, context);
      } catch (e) {
        // where logs are JSON (not a terminal, or --log-format json), a refused start is a JSON log line too
        const { chooseLogFormat, logFatalError } = await import('../../logger.js');
        const { isatty } = await import('node:tty');
        if (chooseLogFormat(options.logFormat as LogFormat | undefined, isatty(2)) === 'pretty') throw e;
        // through the node's logger when it has one (its lines keep their order), else a logger of its own
        const { logger } = context;
        if (logger?.isLevelEnabled('fatal') === true) {
          logger.fatal({ err: e }, e instanceof Error ? e.message : String(e));
          // its JSON lines are written asynchronously: all of them, the refusal last, before the process exits
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, FLUSH_WAIT_MS);
            logger.flush(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        } else logFatalError(e);
        throw new ReportedError(e);
      }
    });

/** As Klayr Core's --enable-<plugin>-plugin flags: the plugin runs, with plugins.<name> of the config (or Klayr's defaults). */
export const enableFlaggedPlugins = (options: Record<string, unknown>, config: ApplicationConfig): void => {
  if (options.enableChainConnectorPlugin === true) config.plugins.chainConnector ??= {};
  if (options.enableReportMisbehaviorPlugin === true) config.plugins.reportMisbehavior ??= {};
};

/** klayr-core's start flags for its plugins that Kestrel does not have: accepted, and said not to be used. */
const UNAVAILABLE_PLUGIN_FLAGS: [option: string, flag: string][] = [
  ['enableForgerPlugin', '--enable-forger-plugin'],
  ['enableMonitorPlugin', '--enable-monitor-plugin'],
  ['monitorPluginPort', '--monitor-plugin-port'],
  ['monitorPluginWhitelist', '--monitor-plugin-whitelist'],
  ['enableFaucetPlugin', '--enable-faucet-plugin'],
  ['faucetPluginPort', '--faucet-plugin-port'],
  ['enableDashboardPlugin', '--enable-dashboard-plugin'],
  ['dashboardPluginPort', '--dashboard-plugin-port'],
];

const unavailablePluginFlags = (options: Record<string, unknown>): string[] =>
  UNAVAILABLE_PLUGIN_FLAGS.filter(([option]) => options[option] !== undefined).map(([, flag]) => flag);

/** What a failed start leaves for its error report: the logger, once there is one. */
interface StartContext {
  logger?: Logger;
}

/**
 * Settles the config and checks the data path lock and the RPC port before anything is written
 * under the data path (a refused start leaves a new data path absent), then saves the network's
 * config there, starts the node and runs it until SIGINT/SIGTERM.
 */
const startNode = async (options: Record<string, unknown>, context: StartContext): Promise<void> => {
  const [
    { configDataPath, installNetworkConfig, loadConfig, unusedConfigKeys },
    { settingsOverwrittenByNetwork },
    { closedRpcWarning },
    { createLogger },
    { DataPathLock },
    { assertPortsFree },
    { KestrelNode },
  ] = await Promise.all([
    import('../../config/index.js'),
    import('../../config/overwritten_settings.js'),
    import('../../config/rpc_access_warning.js'),
    import('../../logger.js'),
    import('../../lock/data_path_lock.js'),
    import('../../node_ports.js'),
    import('../../node.js'),
  ]);
  if (options.genesisBlockUrl !== undefined || options.overwriteGenesisBlock === true)
    throw new Error(
      "--genesis-block-url and --overwrite-genesis-block are Klayr Core's genesis block download, which Kestrel does not do: it embeds the genesis blocks of devnet, testnet and mainnet; for another chain give a config (-c) whose genesis.block.fromFile names the block.",
    );
  const flags = configFlagsOf(options);
  const network = flags.network ?? 'devnet';
  const overwrite = options.overwriteConfig === true;
  const dataPath = configDataPath(flags);
  // the config this start runs with, read before anything is written (--overwrite-config: the network's, not the saved one)
  const planned = loadConfig(flags, { savedConfig: !overwrite });
  // as Klayr Core's flags: a flagged plugin runs with plugins.<name>, checked here before any work (and again when it starts)
  enableFlaggedPlugins(options, planned);
  if (planned.plugins.chainConnector !== undefined)
    (await import('../../../plugins/chain_connector/config.js')).chainConnectorConfig(
      planned.plugins.chainConnector,
      Buffer.from(planned.genesis.chainID, 'hex'),
    );
  if (planned.plugins.reportMisbehavior !== undefined)
    (await import('../../../plugins/report_misbehavior/config.js')).reportMisbehaviorConfig(
      planned.plugins.reportMisbehavior,
    );
  const logger = createLogger(
    planned.system.logLevel,
    'kestrel',
    options.logFormat === undefined ? {} : { format: options.logFormat as LogFormat },
  );
  context.logger = logger;
  for (const { key, reason } of unusedConfigKeys(planned))
    logger.warn({ key }, `Config key ${key} is accepted but not used: ${reason}`);
  for (const flag of unavailablePluginFlags(options))
    logger.warn(
      { flag },
      `Flag ${flag} is accepted but not used: Kestrel has Klayr's chainConnector and reportMisbehavior plugins, not this one`,
    );
  const closed = closedRpcWarning(planned);
  if (closed !== undefined) logger.warn({ key: 'rpc.allowedMethods' }, closed);
  // the lock of an existing data path first (another node on it is the better reason to give), then the port;
  // a new data path is created (by the lock) only once the port is known to be free
  let lock = existsSync(dataPath) ? DataPathLock.acquire(dataPath) : undefined;
  try {
    await assertPortsFree(planned);
  } catch (e) {
    lock?.release();
    throw e;
  }
  lock ??= DataPathLock.acquire(dataPath);
  const overwritten = overwrite ? settingsOverwrittenByNetwork(network, dataPath) : [];
  const installed = installNetworkConfig(network, dataPath, overwrite);
  if (installed !== 'kept')
    logger.info(
      { dataPath, network },
      installed === 'installed'
        ? 'Network config saved under the data path'
        : 'Network config under the data path overwritten',
    );
  if (overwritten.length > 0)
    logger.warn(
      { keys: overwritten },
      `--overwrite-config replaced these settings of the saved config with the network's: ${overwritten.join(', ')} (a -c config file is laid over the config on every start)`,
    );
  const config = loadConfig(flags);
  enableFlaggedPlugins(options, config);
  const node = new KestrelNode(config, logger, lock);
  const started = node.start();
  // a signal during the start stops the node once the start is over (a second Ctrl-C kills it at once)
  const shutdown = (signal: string): void => {
    logger.info({ signal }, 'Shutting down');
    void started
      .catch(() => undefined)
      .then(() => node.stop())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  try {
    await started;
  } catch (e) {
    // what the start had running stops before the process exits (a thread serving RPC must not be cut off)
    await node
      .stop()
      .catch((err: unknown) => logger.error({ err }, 'The node did not stop cleanly after its failed start'));
    throw e;
  }
};
