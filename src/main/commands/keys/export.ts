import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';
import { withNode } from '../node_client.js';

/** `kestrel keys:export`: the keys the running node holds (generator_getAllKeys), as a keys file. */
export const keysExportCommand = (): Command =>
  addNodeFlags(
    new Command('keys:export')
      .description('Export the keys the running node holds (generator_getAllKeys).')
      .option(
        '-o, --output <path>',
        'File (a path with an extension) or directory (keys.json in it) to write, mode 600.',
        '.',
      ),
  ).action(async (options: NodeOptions & { output: string }) => {
    const { keys } = (await withNode(options, (client) => client.invoke('generator_getAllKeys'))) as {
      keys: { address: string; type: string; data: Record<string, unknown> }[];
    };
    const file = {
      keys: keys.map((k) => ({
        address: k.address,
        ...(k.type === 'plain' ? { plain: k.data } : { encrypted: k.data }),
      })),
    };
    const { writeOutputFile } = await import('../output_file.js');
    process.stdout.write(`${writeOutputFile(options.output, file, 'keys')}\n`);
  });
