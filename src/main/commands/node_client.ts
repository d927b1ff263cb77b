import type { Command } from 'commander';
import { connectIPC, connectWS } from '../../rpc/client.js';
import type { RPCClient } from '../../rpc/client.js';
import { expandHome } from '../config/index.js';

export interface NodeOptions {
  dataPath: string;
  ws?: string;
  pretty?: boolean;
}

/** The flags every command that talks to a running node takes. */
export const addNodeFlags = (command: Command): Command =>
  command
    .option('-d, --data-path <path>', 'Data path of the node to reach over IPC.', '~/.klayr/kestrel')
    .option('--ws <url>', 'Reach the node over WebSocket instead, e.g. ws://127.0.0.1:7887/rpc-ws')
    .option('--pretty', 'Indent the JSON output.');

/** Runs `fn` with a client of the running node (IPC unless --ws), closing it afterwards. */
export const withNode = async <T>(options: NodeOptions, fn: (client: RPCClient) => Promise<T>): Promise<T> => {
  const client = options.ws !== undefined ? await connectWS(options.ws) : await connectIPC(expandHome(options.dataPath));
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
};

export const printJSON = (value: unknown, pretty = false): void => {
  process.stdout.write(`${JSON.stringify(value, null, pretty ? '\t' : undefined)}\n`);
};
