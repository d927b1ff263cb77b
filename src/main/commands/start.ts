import { Command } from 'commander';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { KestrelNode } from '../node.js';
import { addConfigFlags, configFlagsOf } from './flags.js';

export const startCommand = (): Command =>
  addConfigFlags(new Command('start'))
    .description('Start a node: process (or reload) the genesis block, generate blocks for the validators with plain keys in generator.keys.fromFile (all 103 on the embedded devnet), and serve JSON-RPC.')
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
