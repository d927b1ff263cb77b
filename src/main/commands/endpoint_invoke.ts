import { Command } from 'commander';
import { connectIPC, connectWS } from '../../rpc/client.js';
import { expandHome } from '../config/index.js';

const parseParams = (text: string | undefined): Record<string, unknown> => {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`params must be a JSON object: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('params must be a JSON object, e.g. \'{"address":"kly..."}\'');
  return value as Record<string, unknown>;
};

export const endpointInvokeCommand = (): Command =>
  new Command('endpoint:invoke')
    .description('Invoke an endpoint of a running node over IPC (default) or WebSocket, and print the result as JSON.')
    .argument('<endpoint>', 'Endpoint name, e.g. system_getNodeInfo')
    .argument('[params]', 'Endpoint params as a JSON object')
    .option('-d, --data-path <path>', 'Data path of the node to reach over IPC.', '~/.klayr/kestrel')
    .option('--ws <url>', 'Reach the node over WebSocket instead, e.g. ws://127.0.0.1:7887/rpc-ws')
    .option('--pretty', 'Indent the JSON output.')
    .action(async (endpoint: string, paramsText: string | undefined, options: { dataPath: string; ws?: string; pretty?: boolean }) => {
      const params = parseParams(paramsText);
      const client = options.ws !== undefined ? await connectWS(options.ws) : await connectIPC(expandHome(options.dataPath));
      try {
        const result = await client.invoke(endpoint, params);
        process.stdout.write(`${JSON.stringify(result, null, options.pretty === true ? '\t' : undefined)}\n`);
      } finally {
        await client.close();
      }
    });
