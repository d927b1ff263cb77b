import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';

/** `kestrel generator:status`: generator_getStatus as Klayr Core prints it, `{ info: { status } }`. */
export const generatorStatusCommand = (): Command =>
  addNodeFlags(
    new Command('generator:status').description(
      'Print the block generation status of the validators on the running node (generator_getStatus).',
    ),
  ).action(async (options: NodeOptions) => {
    const { printJSON, withNode } = await import('../node_client.js');
    printJSON(
      { info: await withNode(options, (client) => client.invoke('generator_getStatus')) },
      options.pretty === true,
    );
  });
