import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';
import { withNode } from '../node_client.js';

/** One validator's generated info as generator:export writes it and generator:import reads it. */
export interface GeneratorInfo {
  address: string;
  height: number;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
}

/** `kestrel generator:export`: the node's keys and generated info, as Klayr Core writes them (mode 600). */
export const generatorExportCommand = (): Command =>
  addNodeFlags(
    new Command('generator:export')
      .description('Export the keys and generated info of the running node to a file.')
      .option(
        '-o, --output <path>',
        'File (a path with an extension) or directory (generator_info.json in it) to write, mode 600.',
        'generator_info.json',
      ),
  ).action(async (options: NodeOptions & { output: string }) => {
    const { keys, status } = await withNode(options, async (client) => ({
      keys: (
        (await client.invoke('generator_getAllKeys')) as { keys: { address: string; type: string; data: unknown }[] }
      ).keys,
      status: ((await client.invoke('generator_getStatus')) as { status: GeneratorInfo[] }).status,
    }));
    const file = {
      keys: keys.map((k) =>
        k.type === 'encrypted' ? { address: k.address, encrypted: k.data } : { address: k.address, plain: k.data },
      ),
      generatorInfo: status.map(({ address, height, maxHeightGenerated, maxHeightPrevoted }) => ({
        address,
        height,
        maxHeightGenerated,
        maxHeightPrevoted,
      })),
    };
    const { writeOutputFile } = await import('../output_file.js');
    process.stdout.write(`${writeOutputFile(options.output, file, 'generator_info')}\n`);
  });
