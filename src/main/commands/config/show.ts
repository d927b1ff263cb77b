import { Command } from 'commander';
import { addConfigFlags, configFlagsOf } from '../flags.js';

/** `kestrel config:show`: the merged, validated config as JSON. */
export const configShowCommand = (): Command =>
  addConfigFlags(new Command('config:show'))
    .description(
      'Show the application config the node would run with: defaults, network preset, config file and flags merged and validated.',
    )
    .option('--pretty', 'Indent the JSON output.')
    .action(async (options: Record<string, unknown>) => {
      const { loadConfig } = await import('../../config/load.js');
      const config = loadConfig(configFlagsOf(options));
      process.stdout.write(`${JSON.stringify(config, null, options.pretty === true ? '\t' : undefined)}\n`);
    });
