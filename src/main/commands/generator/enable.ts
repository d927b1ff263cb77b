import { Command } from 'commander';
import type { StatusOptions } from './update_status.js';
import { statusFlags, updateStatus } from './update_status.js';

/** `kestrel generator:enable <address>`. */
export const generatorEnableCommand = (): Command =>
  statusFlags(
    new Command('generator:enable')
      .description('Enable block generation for a validator whose keys the node holds (generator_updateStatus).')
      .argument('<address>', 'Validator address (klayr32)'),
  ).action((address: string, options: StatusOptions) => updateStatus(address, options, true));
