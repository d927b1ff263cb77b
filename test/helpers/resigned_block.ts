// A devnet validator's invalid block: header fields changed, then signed again with the generator's own key, so that
// only the changed field can make it fail.
import { readPlainGeneratorKeys } from '../../src/engine/generator/keys.js';
import type { Block, BlockHeader } from '../../src/lib/chain/block.js';
import { signBlockHeader } from '../../src/lib/chain/block.js';
import { loadConfig } from '../../src/main/config/index.js';
import { tempDataPath } from './state.js';

const DEVNET_CHAIN_ID = Buffer.from('04000000', 'hex');
const keys = readPlainGeneratorKeys(loadConfig({ dataPath: tempDataPath() }).generator?.keys.fromFile ?? '');

/** The devnet validator's keys for `address`. */
export const devnetKeyOf = (address: Buffer) => {
  const key = keys.find((k) => k.address.equals(address));
  if (key === undefined) throw new Error(`no devnet key for ${address.toString('hex')}`);
  return key;
};

/** The devnet block with header fields changed and signed again by its generator. */
export const resigned = (block: Block, change: Partial<BlockHeader>): Block => {
  const { signature: _old, ...unsigned } = { ...block.header, ...change };
  return {
    ...block,
    header: signBlockHeader(unsigned, DEVNET_CHAIN_ID, devnetKeyOf(block.header.generatorAddress).generatorPrivateKey),
  };
};
