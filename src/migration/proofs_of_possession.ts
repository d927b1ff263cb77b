import type { Block } from '../lib/chain/block.js';
import { blsPopVerify } from '../lib/crypto/bls.js';
import type { TransactionObject } from '../lib/transaction/index.js';
import { genesisProofsOfPossession } from '../modules/pos/genesis.js';
import type { Snapshot } from './snapshot.js';

/** What finds the proofs of possession a block's transactions carry (the modules' transactionProofsOfPossession). */
export type TransactionProofs = (tx: TransactionObject) => { pk: Buffer; proof: Buffer }[];

/**
 * The proof of possession of each BLS key ever registered on the old chain. The state keeps only
 * the keys, so the proofs are read back from where they were registered: the genesis block's pos
 * asset and the key-registering transactions (pos registerValidator, legacy registerKeys), the
 * blocks read `pageSize` at a time. A key offered with several proofs (a failed registration
 * besides the one that succeeded) keeps the one that verifies.
 */
export class ProofsOfPossession {
  private readonly candidates = new Map<string, Buffer[]>();

  private add(pk: Buffer, proof: Buffer): void {
    const key = pk.toString('hex');
    const list = this.candidates.get(key) ?? [];
    if (!list.some((p) => p.equals(proof))) list.push(proof);
    this.candidates.set(key, list);
  }

  addBlock(block: Block, proofs: TransactionProofs): void {
    if (block.header.version === 0)
      for (const { pk, proof } of genesisProofsOfPossession(block.assets)) this.add(pk, proof);
    for (const tx of block.transactions) for (const { pk, proof } of proofs(tx)) this.add(pk, proof);
  }

  static scan(
    snapshot: Snapshot,
    proofs: TransactionProofs,
    pageSize: number,
    onBlock: (height: number) => void = () => undefined,
  ): ProofsOfPossession {
    const found = new ProofsOfPossession();
    const from = snapshot.lowestBlockHeight() ?? snapshot.height;
    for (const block of snapshot.blocks(from, pageSize)) {
      found.addBlock(block, proofs);
      onBlock(block.header.height);
    }
    return found;
  }

  /** The proof registered with `blsKey`, undefined when none was found. */
  of(blsKey: Buffer): Buffer | undefined {
    const list = this.candidates.get(blsKey.toString('hex'));
    if (list === undefined) return undefined;
    if (list.length === 1) return list[0];
    return list.find((proof) => blsPopVerify(blsKey, proof));
  }
}
