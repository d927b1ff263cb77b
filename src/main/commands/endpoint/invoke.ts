import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';
import { printJSON, withNode } from '../node_client.js';

const parseParams = (text: string | undefined): Record<string, unknown> => {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`params must be a JSON object: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('params must be a JSON object, e.g. \'{"address":"kly..."}\'');
  return value as Record<string, unknown>;
};

/** `kestrel endpoint:invoke <endpoint> [params]`: one JSON-RPC call to the running node. */
export const endpointInvokeCommand = (): Command =>
  addNodeFlags(
    new Command('endpoint:invoke')
      .description(
        'Invoke an endpoint of a running node over IPC (default) or WebSocket, and print the result as JSON.',
      )
      .argument('<endpoint>', 'Endpoint name, e.g. system_getNodeInfo')
      .argument('[params]', 'Endpoint params as a JSON object'),
  ).action(async (endpoint: string, paramsText: string | undefined, options: NodeOptions) => {
    const params = parseParams(paramsText);
    printJSON(await withNode(options, (client) => client.invoke(endpoint, params)), options.pretty === true);
  });
