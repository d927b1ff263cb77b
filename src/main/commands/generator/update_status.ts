/** What generator:enable and generator:disable share: their flags and the generator_updateStatus call. */
import type { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags, nonNegativeInteger } from '../flags.js';
import { withNode } from '../node_client.js';

export interface StatusOptions extends NodeOptions {
  password?: string;
  useStatusValue?: boolean;
  height?: number;
  maxHeightGenerated?: number;
  maxHeightPrevoted?: number;
}

interface GeneratedInfo {
  height: number;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
}

export const passwordFlag = (command: Command): Command =>
  command.option(
    '-w, --password <password>',
    'Password of the encrypted generator keys (asked for, hidden, when absent).',
  );

export const statusFlags = (command: Command): Command =>
  passwordFlag(addNodeFlags(command))
    .option('--use-status-value', 'Use the generated info the node holds for the validator (generator_getStatus).')
    .option('--height <height>', 'Last generated height.', nonNegativeInteger)
    .option('--max-height-generated <height>', 'Largest height this validator generated before.', nonNegativeInteger)
    .option('--max-height-prevoted <height>', 'Largest prevoted height when it last generated.', nonNegativeInteger);

/** The generated info given as flags, or with --use-status-value (exclusive with them, as in Klayr Core) the node's. */
const statusValuesOf = (options: StatusOptions): GeneratedInfo | 'from node' => {
  const given = {
    height: options.height,
    maxHeightGenerated: options.maxHeightGenerated,
    maxHeightPrevoted: options.maxHeightPrevoted,
  };
  if (options.useStatusValue === true) {
    if (Object.values(given).some((v) => v !== undefined))
      throw new Error(
        '--use-status-value cannot be given with --height, --max-height-generated or --max-height-prevoted.',
      );
    return 'from node';
  }
  if (given.height === undefined || given.maxHeightGenerated === undefined || given.maxHeightPrevoted === undefined) {
    throw new Error('Give --use-status-value, or all of --height, --max-height-generated and --max-height-prevoted.');
  }
  return {
    height: given.height,
    maxHeightGenerated: given.maxHeightGenerated,
    maxHeightPrevoted: given.maxHeightPrevoted,
  };
};

export const updateStatus = async (address: string, options: StatusOptions, enable: boolean): Promise<void> => {
  const values = enable ? statusValuesOf(options) : { height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 };
  const { readPassword } = await import('../prompt.js');
  const password = await readPassword(options.password, {
    question: 'Please enter the password of the generator keys: ',
  });
  const result = await withNode(options, async (client) => {
    let info: GeneratedInfo;
    if (values === 'from node') {
      // as Klayr Core: the status the node holds (generator_setStatus sets it), never made up
      const { status } = (await client.invoke('generator_getStatus')) as {
        status: (GeneratedInfo & { address: string })[];
      };
      const own = status.find((s) => s.address === address);
      if (own === undefined) throw new Error(`Status for ${address} not found in the node.`);
      info = {
        height: own.height,
        maxHeightGenerated: own.maxHeightGenerated,
        maxHeightPrevoted: own.maxHeightPrevoted,
      };
    } else {
      info = values;
    }
    // the node decrypts the keys with argon2id at Klayr's 2 GiB: about ten seconds, far more on a loaded machine
    return client.invoke('generator_updateStatus', { address, password, enable, ...info }, { timeoutMs: 300_000 });
  });
  // Klayr Core's line, for the address the node answers
  process.stdout.write(
    `${enable ? 'Enabled' : 'Disabled'} block generation for ${(result as { address: string }).address}\n`,
  );
};
