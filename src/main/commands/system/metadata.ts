import type { Command } from 'commander';
import { invokingCommand } from '../node_client.js';

/** `kestrel system:metadata`. */
export const systemMetadataCommand = (): Command =>
  invokingCommand(
    'system:metadata',
    'Print the module metadata of the running node (system_getMetadata).',
    'system_getMetadata',
  );
