import { Command } from 'commander';
import { statusFlags, updateStatus } from './update_status.js';
import type { StatusOptions } from './update_status.js';

/** `kestrel generator:disable <address>`: the generated info defaults to zeros. */
export const generatorDisableCommand = (): Command =>
  statusFlags(new Command('generator:disable').description('Disable block generation for a validator (generator_updateStatus).').argument('<address>', 'Validator address (klayr32)')).action(
    (address: string, options: StatusOptions) => updateStatus(address, { ...options, height: options.height ?? 0, maxHeightGenerated: options.maxHeightGenerated ?? 0, maxHeightPrevoted: options.maxHeightPrevoted ?? 0 }, false),
  );
