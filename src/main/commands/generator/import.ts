import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';
import { printJSON, withNode } from '../node_client.js';
import type { GeneratorInfo } from './export.js';

/** `kestrel generator:import -f <file>`: sets the generated info of a generator:export file on the running node. */
export const generatorImportCommand = (): Command =>
  addNodeFlags(
    new Command('generator:import')
      .description('Import the generated info of a generator:export file (generator_setStatus).')
      .requiredOption('-f, --file-path <file>', 'Path of the file to import from.'),
  ).action(async (options: NodeOptions & { filePath: string }) => {
    const parsed = JSON.parse(readFileSync(options.filePath, 'utf8')) as { generatorInfo?: GeneratorInfo[] };
    await withNode(options, async (client) => {
      for (const info of parsed.generatorInfo ?? []) await client.invoke('generator_setStatus', { ...info });
    });
    printJSON({ imported: (parsed.generatorInfo ?? []).map((i) => i.address) }, options.pretty === true);
  });
