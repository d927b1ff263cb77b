import type { SingleCommit } from '../../lib/chain/single_commit.js';

/** Single commits by height, kept in arrival order (Klayr's CommitList). */
export class CommitList {
  readonly #byHeight = new Map<number, SingleCommit[]>();

  getByHeight(height: number): readonly SingleCommit[] {
    return this.#byHeight.get(height) ?? [];
  }

  heights(): number[] {
    return [...this.#byHeight.keys()];
  }

  size(): number {
    let sum = 0;
    for (const commits of this.#byHeight.values()) sum += commits.length;
    return sum;
  }

  add(commit: SingleCommit): void {
    const commits = this.#byHeight.get(commit.height);
    if (commits === undefined) this.#byHeight.set(commit.height, [commit]);
    else commits.push(commit);
  }

  /** A commit of the same block by the same validator is held. */
  exists(commit: SingleCommit): boolean {
    return this.getByHeight(commit.height).some((c) => sameCommit(c, commit));
  }

  deleteByHeight(height: number): void {
    this.#byHeight.delete(height);
  }

  deleteSingle(commit: SingleCommit): void {
    const commits = this.#byHeight.get(commit.height);
    if (commits === undefined) return;
    const index = commits.findIndex((c) => sameCommit(c, commit));
    if (index < 0) return;
    commits.splice(index, 1);
    if (commits.length === 0) this.#byHeight.delete(commit.height);
  }

  /** Every commit, by height (ascending or descending), arrival order within a height. */
  getAll(order: 'ascending' | 'descending' = 'ascending'): SingleCommit[] {
    const sign = order === 'ascending' ? 1 : -1;
    return [...this.#byHeight.values()].flat().sort((a, b) => sign * (a.height - b.height));
  }
}

const sameCommit = (a: SingleCommit, b: SingleCommit): boolean =>
  a.blockID.equals(b.blockID) && a.validatorAddress.equals(b.validatorAddress);
