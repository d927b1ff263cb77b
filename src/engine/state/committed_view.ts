import type { StateBase } from './state_db.js';
import { BlockState } from './state_db.js';
import type { Entry, IterateOptions, StateReadWriter } from './types.js';

/**
 * Committed state as an endpoint call sees it: reads go straight to the committed state, and an
 * overlay of its own is made only when the call writes or takes a snapshot (an endpoint computing
 * on a copy), so a read-only call (nearly all of them, one per RPC request) builds none.
 */
export class CommittedView implements StateReadWriter {
  #overlay?: BlockState;

  constructor(private readonly committed: StateBase) {}

  #writable(): BlockState {
    this.#overlay ??= new BlockState(this.committed);
    return this.#overlay;
  }

  get(key: Buffer): Buffer | undefined {
    return this.#overlay === undefined ? this.committed.get(key) : this.#overlay.get(key);
  }
  has(key: Buffer): boolean {
    return this.get(key) !== undefined;
  }
  set(key: Buffer, value: Buffer): void {
    this.#writable().set(key, value);
  }
  del(key: Buffer): void {
    this.#writable().del(key);
  }
  snapshot(): number {
    return this.#writable().snapshot();
  }
  restoreSnapshot(id: number): void {
    this.#writable().restoreSnapshot(id);
  }
  iterate(options: IterateOptions): Entry[] {
    return this.#overlay === undefined ? this.committed.iterate(options) : this.#overlay.iterate(options);
  }
}
