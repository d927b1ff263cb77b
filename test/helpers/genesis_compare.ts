import { readFileSync } from 'node:fs';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import type { GenesisModule } from '../../src/engine/state_machine/module.js';
import type { Block } from '../../src/lib/chain/block.js';
import { decodeBlock } from '../../src/lib/chain/block.js';
import { computeStorePrefix } from '../../src/lib/state/keys.js';
import { devnetFile } from './devnet.js';
import type { KlayrGenesisResult } from './klayr_genesis.js';
import { runKlayrGenesis } from './klayr_genesis.js';

export const devnetChainID = Buffer.from('04000000', 'hex');
export const devnetGenesis = (): Block => decodeBlock(readFileSync(devnetFile('genesis_block.blob')));

let klayr: Promise<KlayrGenesisResult> | undefined;
/** klayr-framework's genesis result for the devnet block, computed once per test file. */
export const klayrDevnetGenesis = (): Promise<KlayrGenesisResult> => (klayr ??= runKlayrGenesis());

const asMap = (entries: { key: Buffer; value: Buffer }[]): Map<string, string> =>
  new Map(entries.map((e) => [e.key.toString('hex'), e.value.toString('hex')]));

/** The entries one module's stores hold after genesis: Kestrel's (running `modules`) and Klayr's. */
export const compareModuleGenesis = async (modules: GenesisModule[], storePrefix: Buffer, block = devnetGenesis()) => {
  const state = new BlockState(EMPTY_STATE);
  const result = executeGenesis(modules, block, devnetChainID, state);
  const ours = asMap(
    state.overlay.changes().filter((c) => c.value !== undefined && c.key.subarray(0, 4).equals(storePrefix)) as {
      key: Buffer;
      value: Buffer;
    }[],
  );
  const theirs = asMap((await klayrDevnetGenesis()).entries.filter((e) => e.key.subarray(0, 4).equals(storePrefix)));
  return { ours, theirs, events: result.events };
};

export const prefixOf = computeStorePrefix;
