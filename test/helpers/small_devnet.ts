import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/main/config/load.js';
import { createDevnetGenesisBlock, writeGenesisBlockFiles } from '../../src/main/network/devnet_genesis.js';
import type { DevValidatorKey } from './devnet.js';
import { devValidators } from './devnet.js';

/**
 * A devnet genesis block whose genesis validators are the first `validators` dev validators, for good
 * (src/main/network/devnet_genesis.ts), written to a new temp dir: the blob's path, for a Kestrel
 * node's genesis.block.fromFile and a Klayr node's --genesis. With a few validators the chain
 * finalizes within a few blocks, where the devnet's own genesis block needs about 70.
 */
export const smallDevnetGenesisFile = (validators: number): string =>
  writeGenesisBlockFiles(
    mkdtempSync(join(tmpdir(), 'kestrel-small-devnet-')),
    'genesis_block',
    createDevnetGenesisBlock(
      loadConfig({ network: 'devnet' }, { savedConfig: false }),
      validators,
      Math.floor(Date.now() / 1000),
    ),
  );

/** The genesis validators' keys of smallDevnetGenesisFile(validators). */
export const smallDevnetValidators = (validators: number): DevValidatorKey[] => devValidators().slice(0, validators);
