/** What generator:enable and generator:disable share: their flags and the generator_updateStatus call. */
import type { Command } from 'commander';
import { addNodeFlags, nonNegativeInteger } from '../flags.js';
import type { NodeOptions } from '../flags.js';
import { printJSON, withNode } from '../node_client.js';
import { readGeneratorPassword } from '../prompt.js';

export interface StatusOptions extends NodeOptions {
  password?: string;
  useStatusValue?: boolean;
  height?: number;
  maxHeightGenerated?: number;
  maxHeightPrevoted?: number;
}

export const statusFlags = (command: Command): Command =>
  addNodeFlags(command)
    .option('-w, --password <password>', 'Password of the encrypted generator keys (read from standard input when absent).')
    .option('--use-status-value', 'Use the generated info the node holds for the validator (generator_getStatus).')
    .option('--height <height>', 'Last generated height.', nonNegativeInteger)
    .option('--max-height-generated <height>', 'Largest height this validator generated before.', nonNegativeInteger)
    .option('--max-height-prevoted <height>', 'Largest prevoted height when it last generated.', nonNegativeInteger);

export const updateStatus = async (address: string, options: StatusOptions, enable: boolean): Promise<void> => {
  const password = await readGeneratorPassword(options.password);
  const result = await withNode(options, async (client) => {
    let info = { height: options.height, maxHeightGenerated: options.maxHeightGenerated, maxHeightPrevoted: options.maxHeightPrevoted };
    if (options.useStatusValue === true) {
      const { status } = (await client.invoke('generator_getStatus')) as { status: { address: string; height: number; maxHeightGenerated: number; maxHeightPrevoted: number }[] };
      const own = status.find((s) => s.address === address);
      info = own === undefined ? { height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 } : { height: own.height, maxHeightGenerated: own.maxHeightGenerated, maxHeightPrevoted: own.maxHeightPrevoted };
    }
    if (info.height === undefined || info.maxHeightGenerated === undefined || info.maxHeightPrevoted === undefined) {
      throw new Error('Give --use-status-value, or all of --height, --max-height-generated and --max-height-prevoted.');
    }
    return client.invoke('generator_updateStatus', { address, password, enable, ...info });
  });
  printJSON(result, options.pretty === true);
};
