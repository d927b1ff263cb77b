import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { Command, InvalidArgumentError } from 'commander';
import { addNodeFlags, printJSON, withNode } from './node_client.js';
import type { NodeOptions } from './node_client.js';

const nonNegativeInteger = (value: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('must be a non-negative integer.');
  return n;
};

/** A command that invokes one endpoint of the running node and prints its result. */
const invoking = (name: string, description: string, method: string): Command =>
  addNodeFlags(new Command(name).description(description)).action(async (options: NodeOptions) => {
    printJSON(await withNode(options, (client) => client.invoke(method)), options.pretty === true);
  });

export const systemNodeInfoCommand = (): Command => invoking('system:node-info', 'Print the node info of the running node (system_getNodeInfo).', 'system_getNodeInfo');
export const systemMetadataCommand = (): Command => invoking('system:metadata', 'Print the module metadata of the running node (system_getMetadata).', 'system_getMetadata');
export const generatorStatusCommand = (): Command => invoking('generator:status', 'Print the block generation status of the validators on the running node (generator_getStatus).', 'generator_getStatus');

/** The password from --password, or read from standard input (one line). */
const readPassword = async (given: string | undefined): Promise<string> => {
  if (given !== undefined) return given;
  process.stderr.write('Enter the password of the generator keys: ');
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  throw new Error('No password given (use --password or type it on standard input).');
};

interface StatusOptions extends NodeOptions {
  password?: string;
  useStatusValue?: boolean;
  height?: number;
  maxHeightGenerated?: number;
  maxHeightPrevoted?: number;
}

const statusFlags = (command: Command): Command =>
  addNodeFlags(command)
    .option('-w, --password <password>', 'Password of the encrypted generator keys (read from standard input when absent).')
    .option('--use-status-value', 'Use the generated info the node holds for the validator (generator_getStatus).')
    .option('--height <height>', 'Last generated height.', nonNegativeInteger)
    .option('--max-height-generated <height>', 'Largest height this validator generated before.', nonNegativeInteger)
    .option('--max-height-prevoted <height>', 'Largest prevoted height when it last generated.', nonNegativeInteger);

const updateStatus = async (address: string, options: StatusOptions, enable: boolean): Promise<void> => {
  const password = await readPassword(options.password);
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

export const generatorEnableCommand = (): Command =>
  statusFlags(new Command('generator:enable').description('Enable block generation for a validator whose keys the node holds (generator_updateStatus).').argument('<address>', 'Validator address (klayr32)')).action(
    (address: string, options: StatusOptions) => updateStatus(address, options, true),
  );

export const generatorDisableCommand = (): Command =>
  statusFlags(new Command('generator:disable').description('Disable block generation for a validator (generator_updateStatus).').argument('<address>', 'Validator address (klayr32)')).action(
    (address: string, options: StatusOptions) => updateStatus(address, { ...options, height: options.height ?? 0, maxHeightGenerated: options.maxHeightGenerated ?? 0, maxHeightPrevoted: options.maxHeightPrevoted ?? 0 }, false),
  );

interface GeneratorInfo {
  address: string;
  height: number;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
}

/** `kestrel generator:export`: the node's keys and generated info, as Klayr Core writes them (mode 600). */
export const generatorExportCommand = (): Command =>
  addNodeFlags(new Command('generator:export').description('Export the keys and generated info of the running node to a file.').option('-o, --output <file>', 'File to write.', 'generator_info.json')).action(
    async (options: NodeOptions & { output: string }) => {
      const { keys, status } = await withNode(options, async (client) => ({
        keys: ((await client.invoke('generator_getAllKeys')) as { keys: { address: string; type: string; data: unknown }[] }).keys,
        status: ((await client.invoke('generator_getStatus')) as { status: GeneratorInfo[] }).status,
      }));
      const file = {
        keys: keys.map((k) => (k.type === 'encrypted' ? { address: k.address, encrypted: k.data } : { address: k.address, plain: k.data })),
        generatorInfo: status.map(({ address, height, maxHeightGenerated, maxHeightPrevoted }) => ({ address, height, maxHeightGenerated, maxHeightPrevoted })),
      };
      mkdirSync(dirname(options.output), { recursive: true });
      writeFileSync(options.output, `${JSON.stringify(file, undefined, ' ')}\n`, { mode: 0o600 });
      process.stdout.write(`Generator info is exported to ${options.output}\n`);
    },
  );

/** `kestrel generator:import -f <file>`: sets the generated info of a generator:export file on the running node. */
export const generatorImportCommand = (): Command =>
  addNodeFlags(new Command('generator:import').description('Import the generated info of a generator:export file (generator_setStatus).').requiredOption('-f, --file-path <file>', 'Path of the file to import from.')).action(
    async (options: NodeOptions & { filePath: string }) => {
      const parsed = JSON.parse(readFileSync(options.filePath, 'utf8')) as { generatorInfo?: GeneratorInfo[] };
      await withNode(options, async (client) => {
        for (const info of parsed.generatorInfo ?? []) await client.invoke('generator_setStatus', { ...info });
      });
      printJSON({ imported: (parsed.generatorInfo ?? []).map((i) => i.address) }, options.pretty === true);
    },
  );
