/**
 * The peers one block synchronization fetches its getBlocksFromId batches from, in turn (the best
 * peer first). A peer that stalls or lies is set aside for the rest of the synchronization while
 * another is left; the last one is never set aside (with one peer, the synchronization asks it as
 * Klayr does).
 */
export class BatchPeers {
  readonly #active: string[];
  #turn = 0;

  constructor(peerIds: readonly string[]) {
    this.#active = [...new Set(peerIds)];
    if (this.#active.length === 0) throw new Error('No peer to fetch blocks from');
  }

  /** The peer whose turn it is to serve a batch; the next call names the one after it. */
  next(): string {
    const peerId = this.#active[this.#turn % this.#active.length] as string;
    this.#turn = (this.#turn + 1) % this.#active.length;
    return peerId;
  }

  /** Whether a peer other than `peerId` is left to ask. */
  othersThan(peerId: string): boolean {
    return this.#active.some((id) => id !== peerId);
  }

  /** Takes `peerId` out of the turns when another peer is left; false when it is the last one (kept). */
  setAside(peerId: string): boolean {
    const index = this.#active.indexOf(peerId);
    if (index === -1) return true;
    if (!this.othersThan(peerId)) return false;
    this.#active.splice(index, 1);
    // the peer after the one taken out keeps its turn
    if (this.#turn > index) this.#turn -= 1;
    this.#turn %= this.#active.length;
    return true;
  }

  get peerIds(): readonly string[] {
    return this.#active;
  }
}
