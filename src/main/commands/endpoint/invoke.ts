import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';

const parseParams = (text: string, source: string): Record<string, unknown> => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${source} must be a JSON object: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${source} must be a JSON object, e.g. '{"address":"kly..."}'`);
  return value as Record<string, unknown>;
};

/** The params from --file, else the argument, else none. */
const paramsOf = async (text: string | undefined, file: string | undefined): Promise<Record<string, unknown>> => {
  if (file !== undefined) {
    const { existsSync, readFileSync } = await import('node:fs');
    if (!existsSync(file)) throw new Error(`${file} does not exist.`);
    return parseParams(readFileSync(file, 'utf8'), `The params in ${file}`);
  }
  return text === undefined ? {} : parseParams(text, 'params');
};

/**
 * `kestrel endpoint:invoke <endpoint> [params]`: one JSON-RPC call to the running node, its result
 * printed. As Klayr Core's, an application's error answered as a result (a module's or plugin's
 * method, or an unknown name: `{ error: { message } }`) is printed as that result; an engine's
 * JSON-RPC error is an error (exit code 1).
 */
export const endpointInvokeCommand = (): Command =>
  addNodeFlags(
    new Command('endpoint:invoke')
      .description(
        'Invoke an endpoint of a running node over IPC (default) or WebSocket, and print the result as JSON.',
      )
      .argument('<endpoint>', 'Endpoint name, e.g. system_getNodeInfo')
      .argument('[params]', 'Endpoint params as a JSON object')
      .option('-f, --file <path>', 'A file with the params as a JSON object.'),
  ).action(async (endpoint: string, paramsText: string | undefined, options: NodeOptions & { file?: string }) => {
    const params = await paramsOf(paramsText, options.file);
    const [{ printJSON, withNode }, { RPCCallError }] = await Promise.all([
      import('../node_client.js'),
      import('../../../rpc/client.js'),
    ]);
    const result = await withNode(options, (client) =>
      client.invoke(endpoint, params).catch((e: unknown) => {
        if (e instanceof RPCCallError && e.code === undefined) return { error: { message: e.message } };
        throw e;
      }),
    );
    printJSON(result, options.pretty === true);
  });
