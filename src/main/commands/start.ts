import { Command } from 'commander';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { KestrelNode } from '../node.js';
import { addConfigFlags, configFlagsOf } from './flags.js';

export const startCommand = (): Command =>
  addConfigFlags(new Command('start'))
    .description('Start a node: process (or reload) the genesis block and serve JSON-RPC. Block processing and generation are not built yet; the node stays at its genesis block.')
    .action(async (options: Record<string, unknown>) => {
      const config = loadConfig(configFlagsOf(options));
      const logger = createLogger(config.system.logLevel);
      const node = new KestrelNode(config, logger);
      await node.start();
      const shutdown = (signal: string): void => {
        logger.info({ signal }, 'Shutting down');
        void node.stop().then(() => process.exit(0));
      };
      process.once('SIGINT', () => shutdown('SIGINT'));
      process.once('SIGTERM', () => shutdown('SIGTERM'));
    });
