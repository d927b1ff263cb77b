import { readFileSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { addNodeFlags, printJSON, withNode } from './node_client.js';
import type { NodeOptions } from './node_client.js';

interface KeyFileEntry {
  address: string;
  plain?: { generatorKey: string; generatorPrivateKey: string; blsKey: string; blsPrivateKey: string };
  encrypted?: Record<string, unknown>;
}

/** `kestrel keys:import`: a keys file's keys into the running node (encrypted ones as they are; plain ones only with --plain). */
export const keysImportCommand = (): Command =>
  addNodeFlags(
    new Command('keys:import')
      .description('Import the keys of a keys file (keys:create output) into the running node (generator_setKeys).')
      .requiredOption('-f, --file-path <file>', 'Keys file to import.')
      .option('--plain', 'Import the plain keys instead of the encrypted ones.'),
  ).action(async (options: NodeOptions & { filePath: string; plain?: boolean }) => {
    const parsed = JSON.parse(readFileSync(options.filePath, 'utf8')) as { keys?: KeyFileEntry[] };
    if (!Array.isArray(parsed.keys)) throw new Error(`${options.filePath}: expected { "keys": [...] } as keys:create writes it.`);
    const imported = await withNode(options, async (client) => {
      const done: string[] = [];
      for (const key of parsed.keys!) {
        const encrypted = key.encrypted !== undefined && Object.keys(key.encrypted).length > 0;
        if (options.plain === true || !encrypted) {
          if (key.plain === undefined) throw new Error(`${key.address}: no plain keys in the file.`);
          const { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } = key.plain;
          await client.invoke('generator_setKeys', { address: key.address, type: 'plain', data: { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } });
        } else {
          await client.invoke('generator_setKeys', { address: key.address, type: 'encrypted', data: key.encrypted! });
        }
        done.push(key.address);
      }
      return done;
    });
    printJSON({ imported }, options.pretty === true);
  });

/** `kestrel keys:export`: the keys the running node holds (generator_getAllKeys), as a keys file. */
export const keysExportCommand = (): Command =>
  addNodeFlags(new Command('keys:export').description('Export the keys the running node holds (generator_getAllKeys).').requiredOption('-o, --output <file>', 'File to write (mode 600).')).action(
    async (options: NodeOptions & { output: string }) => {
      const { keys } = (await withNode(options, (client) => client.invoke('generator_getAllKeys'))) as { keys: { address: string; type: string; data: Record<string, unknown> }[] };
      const file = { keys: keys.map((k) => ({ address: k.address, ...(k.type === 'plain' ? { plain: k.data, encrypted: {} } : { encrypted: k.data }) })) };
      writeFileSync(options.output, `${JSON.stringify(file, undefined, ' ')}\n`, { mode: 0o600 });
    },
  );
