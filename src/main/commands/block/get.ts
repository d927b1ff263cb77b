import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';

/** A height (digits) or a block ID (64 hex characters), as Klayr Core's `block:get <input>`. */
const blockQuery = (input: string): { method: string; params: Record<string, unknown> } => {
  if (/^\d+$/.test(input)) {
    const height = Number(input);
    if (height > 0xffffffff) throw new Error(`Height ${input} is above the largest block height (4294967295).`);
    return { method: 'chain_getBlockByHeight', params: { height } };
  }
  if (/^[0-9a-fA-F]{64}$/.test(input)) return { method: 'chain_getBlockByID', params: { id: input.toLowerCase() } };
  throw new Error(`"${input}" is neither a block height (an integer) nor a block ID (64 hex characters).`);
};

/** `kestrel block:get <input>`: a block of the running node, its params and assets decoded (Klayr Core's output). */
export const blockGetCommand = (): Command =>
  addNodeFlags(
    new Command('block:get')
      .description('Get block information for a given id or height.')
      .argument('<input>', 'Height in number or block id in hex format.'),
  ).action(async (input: string, options: NodeOptions) => {
    const query = blockQuery(input);
    const [{ decodedBlockJSON, nodeModuleMetadata }, { isDatabaseKeyNotFound }, { printJSON, withNode }] =
      await Promise.all([
        import('../chain_json.js'),
        import('../../../lib/chain/klayr_not_found.js'),
        import('../node_client.js'),
      ]);
    const block = await withNode(options, async (client) => {
      const found = await client.invoke(query.method, query.params).catch((e: unknown) => {
        if (isDatabaseKeyNotFound(e)) throw new Error('Block with given id or height was not found.');
        throw e;
      });
      return decodedBlockJSON(found as Parameters<typeof decodedBlockJSON>[0], await nodeModuleMetadata(client));
    });
    printJSON(block, options.pretty === true);
  });
