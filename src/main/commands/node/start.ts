import { Command, Option } from 'commander';
import { LOG_FORMATS } from '../../log_format.js';
import type { LogFormat } from '../../log_format.js';
import { addConfigFlags, configFlagsOf } from '../flags.js';

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
    .addOption(
      new Option(
        '--log-format <format>',
        'Log lines as pretty text or JSON (default: pretty on a terminal, JSON otherwise).',
      ).choices(LOG_FORMATS),
    )
    .action(async (options: Record<string, unknown>) => {
      const [
        { configDataPath, installNetworkConfig, loadConfig, unusedConfigKeys },
        { settingsOverwrittenByNetwork },
        { createLogger },
        { DataPathLock },
        { KestrelNode },
      ] = await Promise.all([
        import('../../config/index.js'),
        import('../../config/overwritten_settings.js'),
        import('../../logger.js'),
        import('../../lock/data_path_lock.js'),
        import('../../node.js'),
      ]);
      const flags = configFlagsOf(options);
      // the lock first: nothing under a data path another node runs on is written, not even its config
      const dataPath = configDataPath(flags);
      const lock = DataPathLock.acquire(dataPath);
      const overwritten =
        options.overwriteConfig === true ? settingsOverwrittenByNetwork(flags.network ?? 'devnet', dataPath) : [];
      const installed = installNetworkConfig(flags.network ?? 'devnet', dataPath, options.overwriteConfig === true);
      const config = loadConfig(flags);
      // as Klayr Core's flag: the plugin runs with plugins.chainConnector, checked here before any work (and again when it starts)
      if (options.enableChainConnectorPlugin === true) config.plugins.chainConnector ??= {};
      if (config.plugins.chainConnector !== undefined)
        (await import('../../../plugins/chain_connector/config.js')).chainConnectorConfig(
          config.plugins.chainConnector,
          Buffer.from(config.genesis.chainID, 'hex'),
        );
      const logger = createLogger(
        config.system.logLevel,
        'kestrel',
        options.logFormat === undefined ? {} : { format: options.logFormat as LogFormat },
      );
      if (installed !== 'kept')
        logger.info(
          { dataPath, network: flags.network ?? 'devnet' },
          installed === 'installed'
            ? 'Network config saved under the data path'
            : 'Network config under the data path overwritten',
        );
      if (overwritten.length > 0)
        logger.warn(
          { keys: overwritten },
          `--overwrite-config replaced these settings of the saved config with the network's: ${overwritten.join(', ')} (a -c config file is laid over the config on every start)`,
        );
      for (const { key, reason } of unusedConfigKeys(config))
        logger.warn({ key }, `Config key ${key} is accepted but not used: ${reason}`);
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
      await started;
    });
