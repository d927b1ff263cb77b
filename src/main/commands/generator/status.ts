import type { Command } from 'commander';
import { invokingCommand } from '../node_client.js';

/** `kestrel generator:status`. */
export const generatorStatusCommand = (): Command =>
  invokingCommand(
    'generator:status',
    'Print the block generation status of the validators on the running node (generator_getStatus).',
    'generator_getStatus',
  );
