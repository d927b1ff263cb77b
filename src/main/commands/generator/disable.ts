import { Command } from 'commander';
import { addNodeFlags } from '../flags.js';
import type { StatusOptions } from './update_status.js';
import { passwordFlag, updateStatus } from './update_status.js';

/** `kestrel generator:disable <address>`: as Klayr Core's, generator_updateStatus with enable false and zeros. */
export const generatorDisableCommand = (): Command =>
  passwordFlag(
    addNodeFlags(
      new Command('generator:disable')
        .description('Disable block generation for a validator (generator_updateStatus).')
        .argument('<address>', 'Validator address (klayr32)'),
    ),
  ).action((address: string, options: StatusOptions) => updateStatus(address, options, false));
