import { pino } from 'pino';
import type { GeneratorOptions } from '../../src/engine/generator/generator.js';
import { Generator } from '../../src/engine/generator/generator.js';
import { readPlainGeneratorKeys } from '../../src/engine/generator/keys.js';
import type { OpenedChain } from '../../src/main/chain_setup.js';
import type { ApplicationConfig } from '../../src/main/config/index.js';
import type { BinaryDB } from '../../src/storage/database.js';

/** A generator with every devnet validator's plain keys on a simulated clock, silent. */
export const devnetGenerator = (
  { chain, executor, aggregateCommits }: Pick<OpenedChain, 'chain' | 'executor' | 'aggregateCommits'>,
  config: ApplicationConfig,
  db: BinaryDB,
  now: () => number,
  options: Partial<GeneratorOptions> = {},
): Generator =>
  new Generator({
    chain,
    executor,
    aggregateCommits,
    chainID: Buffer.from(config.genesis.chainID, 'hex'),
    db,
    keys: readPlainGeneratorKeys(config.generator!.keys.fromFile!),
    maxTransactionsSize: config.genesis.maxTransactionsSize,
    logger: pino({ level: 'silent' }),
    now,
    ...options,
  });
