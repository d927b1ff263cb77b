// What a reopened chain must hold after a crash: everything one block commit writes, for the tip and every
// height still kept, agreeing with the headers; nothing above the tip, nothing left that pruning removes.
import assert from 'node:assert/strict';
import { readBFTVotes } from '../../src/engine/bft/index.js';
import { getGeneratedInfo } from '../../src/engine/generator/generated_info.js';
import { BlockState, decodeUndo } from '../../src/engine/state/state_db.js';
import { computeEventRoot } from '../../src/lib/chain/events.js';
import { STATE_SMT_KEY_LENGTH, stateSMTKey, stateSMTValue } from '../../src/lib/state/keys.js';
import { isInclusionProofForKey, verifySMTProof } from '../../src/lib/tree/index.js';
import type { OpenedChain } from '../../src/main/chain_setup.js';
import type { BinaryDB, KestrelDatabases } from '../../src/storage/database.js';
import type { Table } from '../../src/storage/tables.js';
import { TABLES, tableHeightKey, tableKey } from '../../src/storage/tables.js';
import { recomputeRoot } from './state.js';

/** The heights stored in a height-keyed table, ascending. */
export const storedHeights = (db: BinaryDB, table: Table): number[] =>
  [...db.getKeys({ start: tableHeightKey(table, 0), end: tableHeightKey(table, 0xffffffff) })].map((k) =>
    Buffer.from(k as Uint8Array).readUInt32BE(table.prefix.length),
  );

const range = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** Heights below this are pruned after a commit at the tip with `keep` heights kept (the chain's rule, chain/retention.ts). */
const prunedBelow = (precommitted: number, tip: number, keep: number): number =>
  Math.min(precommitted, Math.max(0, tip - keep));

export interface Kept {
  events: number;
  proofs: number;
  provedKeys: readonly Buffer[];
  /** Whether the tip's generator record is written with it (a generating node's chain; a synchronized one has none). */
  generated?: boolean;
}

/** Asserts everything the tip's commit wrote is there and consistent; returns the tip and finalized heights. */
export const assertCommittedChain = (
  { chain, state, events }: OpenedChain,
  dbs: KestrelDatabases,
  kept: Kept,
  label: string,
): { tip: number; finalized: number } => {
  const tip = chain.lastBlock().header;
  const genesisHeight = storedHeights(dbs.blocks, TABLES.blockIDsByHeight)[0]!;
  const previous = tip.height > genesisHeight ? chain.headerAt(tip.height - 1) : undefined;
  // block and state
  assert.deepEqual(
    storedHeights(dbs.blocks, TABLES.blockIDsByHeight),
    range(genesisHeight, tip.height),
    `${label}: blocks up to the tip, none above`,
  );
  assert.equal(state.height, tip.height, `${label}: state height`);
  assert.equal(state.root.toString('hex'), tip.stateRoot.toString('hex'), `${label}: state root is the tip's`);
  assert.equal(state.rootAt(tip.height)?.toString('hex'), tip.stateRoot.toString('hex'), `${label}: root by height`);
  assert.equal(
    recomputeRoot(state).toString('hex'),
    tip.stateRoot.toString('hex'),
    `${label}: stored state gives the root`,
  );
  // BFT state and the finalized height
  const engine = chain.engineView();
  // the votes hold the blocks after genesis, newest first
  const votesEnd = (view: BlockState): number => readBFTVotes(view).blockBFTInfos[0]?.height ?? genesisHeight;
  assert.equal(votesEnd(engine), tip.height, `${label}: BFT votes end at the tip`);
  const precommitted = chain.bft.getBFTHeights(engine).maxHeightPrecommitted;
  const storedFinalized = dbs.meta.get(tableKey(TABLES.finalized))?.readUInt32BE(0);
  assert.equal(storedFinalized, precommitted, `${label}: stored finalized height is the tip's BFT precommitted height`);
  const finalized = chain.finalizedHeight();
  // undo data: exactly the heights above the finalized one
  const undoable = range(finalized + 1, tip.height);
  assert.deepEqual(
    storedHeights(dbs.meta, TABLES.stateDiffs),
    undoable,
    `${label}: state diffs above the finalized height ${finalized}`,
  );
  assert.deepEqual(
    storedHeights(dbs.meta, TABLES.engineUndo),
    undoable,
    `${label}: engine undo above the finalized height ${finalized}`,
  );
  if (previous !== undefined && tip.height > finalized) {
    const diff = state.diffAt(tip.height)!;
    assert.equal(
      diff.previousRoot.toString('hex'),
      previous.stateRoot.toString('hex'),
      `${label}: the tip's diff starts from the previous root`,
    );
    const reverted = state.newOverlay();
    for (const { key, existed, previous: value } of diff.entries) {
      if (existed) reverted.set(key, value);
      else reverted.del(key);
    }
    assert.equal(
      state.prepare(reverted).root.toString('hex'),
      previous.stateRoot.toString('hex'),
      `${label}: undoing the tip's diff gives the previous state root`,
    );
    const engineBefore = new BlockState(chain.engineDB);
    for (const { key, existed, previous: value } of decodeUndo(
      dbs.meta.get(tableHeightKey(TABLES.engineUndo, tip.height))!,
    )) {
      if (existed) engineBefore.set(key, value);
      else engineBefore.del(key);
    }
    assert.equal(
      votesEnd(engineBefore),
      previous.height,
      `${label}: undoing the tip's engine state ends the votes at the previous block`,
    );
  }
  // events: every kept height, matching its header
  const eventsFrom = prunedBelow(precommitted, tip.height, kept.events);
  assert.deepEqual(
    storedHeights(dbs.events, TABLES.events),
    range(Math.max(genesisHeight, eventsFrom), tip.height),
    `${label}: events kept from ${eventsFrom}`,
  );
  for (const height of storedHeights(dbs.events, TABLES.events)) {
    assert.equal(
      computeEventRoot(events.at(height)).toString('hex'),
      chain.headerAt(height)!.eventRoot.toString('hex'),
      `${label}: events at ${height} give the header's event root`,
    );
  }
  // inclusion proofs: every kept height after genesis, proving the keys against that height's root
  const proofsFrom = Math.max(genesisHeight + 1, prunedBelow(precommitted, tip.height, kept.proofs));
  assert.deepEqual(
    storedHeights(dbs.meta, TABLES.inclusionProofs),
    range(proofsFrom, tip.height),
    `${label}: inclusion proofs kept from ${proofsFrom}`,
  );
  const smtKeys = kept.provedKeys.map(stateSMTKey);
  for (const height of range(proofsFrom, tip.height)) {
    const proof = chain.inclusionProofsAt(height);
    assert.ok(
      verifySMTProof(smtKeys, proof, chain.headerAt(height)!.stateRoot, STATE_SMT_KEY_LENGTH),
      `${label}: the proof at ${height} verifies against its state root`,
    );
  }
  if (tip.height > genesisHeight) {
    // queries come in the order of the keys: an inclusion proof of each key's committed value, a non-inclusion proof of an absent key
    const queries = chain.inclusionProofsAt(tip.height).queries;
    kept.provedKeys.forEach((key, i) => {
      const value = state.get(key);
      const query = queries[i]!;
      if (value === undefined)
        assert.ok(!isInclusionProofForKey(smtKeys[i]!, query), `${label}: the tip's proof shows key ${i} absent`);
      else
        assert.ok(
          isInclusionProofForKey(smtKeys[i]!, query) && query.value.equals(stateSMTValue(value)),
          `${label}: the tip's proof holds key ${i}'s committed value`,
        );
    });
  }
  // the generator's record of the tip (written by the same commit)
  if (tip.height > genesisHeight && kept.generated !== false)
    assert.equal(
      getGeneratedInfo(dbs.generator, tip.generatorAddress).height,
      tip.height,
      `${label}: generated info of the tip's generator`,
    );
  return { tip: tip.height, finalized };
};
