import { Command } from 'commander';
import { DEFAULT_HASH_ONION_COUNT, DEFAULT_HASH_ONION_DISTANCE } from '../../lib/crypto/hash_onion_defaults.js';
import { positiveInteger } from './flags.js';

/** `kestrel hash-onion`: a hash onion's checkpoints as Klayr Core prints them, with progress on stderr. */
export const hashOnionCommand = (): Command =>
  new Command('hash-onion')
    .description('Create a hash onion ({ count, distance, hashes }) for random_setHashOnion.')
    .option('-c, --count <count>', 'Number of hashes.', positiveInteger, DEFAULT_HASH_ONION_COUNT)
    .option(
      '-d, --distance <distance>',
      'Distance between stored checkpoints.',
      positiveInteger,
      DEFAULT_HASH_ONION_DISTANCE,
    )
    .option('--seed <hex>', 'A 16-byte seed in hex (default: a fresh random seed).')
    .option(
      '-o, --output <path>',
      'File (a path with an extension) or directory (hash-onion.json in it) to write the JSON to, mode 600.',
    )
    .option('--pretty', 'Indent the JSON output.')
    .action(async (options: { count: number; distance: number; seed?: string; output?: string; pretty?: boolean }) => {
      if (options.distance > options.count)
        throw new Error('Invalid count or distance. Count must be greater than distance.');
      if (options.count % options.distance !== 0) throw new Error('Invalid count. Count must be multiple of distance.');
      const [{ generateHashOnionSeed, hashOnion }, { parseHex }] = await Promise.all([
        import('../../lib/crypto/hash_onion.js'),
        import('../../lib/crypto/bytes.js'),
      ]);
      const seed = options.seed === undefined ? generateHashOnionSeed() : parseHex(options.seed, 'seed', 16);
      // on a terminal only, so that redirected output holds only what Klayr Core prints
      const bar = (done: number) => {
        if (process.stderr.isTTY !== true) return;
        const share = done / options.count;
        process.stderr.write(`\r[${'#'.repeat(Math.round(share * 40)).padEnd(40, '.')}] ${(share * 100).toFixed(0)}%`);
      };
      const hashes = hashOnion(seed, options.count, options.distance, bar);
      if (process.stderr.isTTY === true) process.stderr.write('\n');
      const result = { count: options.count, distance: options.distance, hashes: hashes.map((h) => h.toString('hex')) };
      const { printOrWrite } = await import('./output_file.js');
      printOrWrite(options.output, result, 'hash-onion', options.pretty === true ? '  ' : undefined);
    });
