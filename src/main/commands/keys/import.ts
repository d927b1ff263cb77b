import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';
import { printJSON, withNode } from '../node_client.js';

/** `kestrel keys:import`: a keys file's keys into the running node (encrypted ones as they are; plain ones only with --plain). */
export const keysImportCommand = (): Command =>
  addNodeFlags(
    new Command('keys:import')
      .description('Import the keys of a keys file (keys:create output) into the running node (generator_setKeys).')
      .requiredOption('-f, --file-path <file>', 'Keys file to import.')
      .option('--plain', 'Import the plain keys instead of the encrypted ones.'),
  ).action(async (options: NodeOptions & { filePath: string; plain?: boolean }) => {
    const { hasEncryptedKeys, readKeysFile } = await import('../../../engine/generator/keys.js');
    const entries = readKeysFile(options.filePath);
    const imported = await withNode(options, async (client) => {
      const done: string[] = [];
      for (const key of entries) {
        if (options.plain === true || !hasEncryptedKeys(key)) {
          if (key.plain === undefined) throw new Error(`${key.address}: no plain keys in the file.`);
          const { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } = key.plain;
          await client.invoke('generator_setKeys', {
            address: key.address,
            type: 'plain',
            data: { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey },
          });
        } else {
          await client.invoke('generator_setKeys', { address: key.address, type: 'encrypted', data: key.encrypted });
        }
        done.push(key.address);
      }
      return done;
    });
    printJSON({ imported }, options.pretty === true);
  });
