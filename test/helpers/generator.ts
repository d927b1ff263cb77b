import { pino } from 'pino';
import type { ChainProcessor } from '../../src/engine/chain/processor.js';
import { Generator } from '../../src/engine/generator/generator.js';
import type { GeneratorOptions } from '../../src/engine/generator/generator.js';
import { readPlainGeneratorKeys } from '../../src/engine/generator/keys.js';
import type { BinaryDB } from '../../src/storage/database.js';
import type { ApplicationConfig } from '../../src/main/config/index.js';

/** A generator with every devnet validator's plain keys on a simulated clock, silent. */
export const devnetGenerator = (chain: ChainProcessor, config: ApplicationConfig, db: BinaryDB, now: () => number, options: Partial<GeneratorOptions> = {}): Generator =>
  new Generator({
    chain,
    chainID: Buffer.from(config.genesis.chainID, 'hex'),
    db,
    keys: readPlainGeneratorKeys(config.generator!.keys.fromFile!),
    maxTransactionsSize: config.genesis.maxTransactionsSize,
    logger: pino({ level: 'silent' }),
    now,
    ...options,
  });
