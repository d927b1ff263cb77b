import type { Command } from 'commander';
import { invokingCommand } from '../node_client.js';

/** `kestrel system:node-info`. */
export const systemNodeInfoCommand = (): Command =>
  invokingCommand(
    'system:node-info',
    'Print the node info of the running node (system_getNodeInfo).',
    'system_getNodeInfo',
  );
