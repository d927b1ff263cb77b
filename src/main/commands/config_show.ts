import { Command } from 'commander';
import { loadConfig } from '../config/index.js';
import { addConfigFlags, configFlagsOf } from './flags.js';

export const configShowCommand = (): Command =>
  addConfigFlags(new Command('config:show'))
    .description('Show the application config the node would run with: defaults, network preset, config file and flags merged and validated.')
    .option('--pretty', 'Indent the JSON output.')
    .action((options: Record<string, unknown>) => {
      const config = loadConfig(configFlagsOf(options));
      process.stdout.write(`${JSON.stringify(config, null, options.pretty === true ? '\t' : undefined)}\n`);
    });
