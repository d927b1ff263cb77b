import { Command } from 'commander';
import type { RPCClient } from '../../rpc/client.js';
import type { NodeOptions } from './flags.js';
import { addNodeFlags } from './flags.js';

/** Runs `fn` with a client of the running node (IPC unless --ws), closing it afterwards; the RPC client (zeromq, ws) loads here. */
export const withNode = async <T>(options: NodeOptions, fn: (client: RPCClient) => Promise<T>): Promise<T> => {
  const [{ connectIPC, connectWS }, { expandHome }] = await Promise.all([
    import('../../rpc/client.js'),
    import('../config/home.js'),
  ]);
  const client =
    options.ws !== undefined ? await connectWS(options.ws) : await connectIPC(expandHome(options.dataPath));
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
};

/** A result of the running node as Klayr Core's node commands print it: one line, or indented by two spaces with --pretty. */
export const printJSON = (value: unknown, pretty = false): void => {
  process.stdout.write(`${JSON.stringify(value, null, pretty ? '  ' : undefined)}\n`);
};

/** A command that invokes one endpoint of the running node without params and prints its result. */
export const invokingCommand = (name: string, description: string, method: string): Command =>
  addNodeFlags(new Command(name).description(description)).action(async (options: NodeOptions) => {
    printJSON(await withNode(options, (client) => client.invoke(method)), options.pretty === true);
  });
