/**
 * The peers one block synchronization fetches its getBlocksFromId batches from, in turn: the best
 * peer first, then every peer `sameChain` names, looked up again at each turn (a peer that
 * announces the best peer's tip a little later joins). A peer that stalls or lies is set aside for
 * the rest of the synchronization while another is left; the last one is never set aside (with one
 * peer, the synchronization asks it as Klayr does).
 */
export class BatchPeers {
  readonly #active: string[];
  readonly #setAside = new Set<string>();
  #turn = 0;

  constructor(
    /** The best peer: it named the common block the batches start from. */
    readonly best: string,
    private readonly sameChain: () => readonly string[] = () => [],
  ) {
    this.#active = [best];
    this.#join();
  }

  /** The peer whose turn it is to serve a batch; the next call names the one after it. */
  next(): string {
    this.#join();
    const peerId = this.#active[this.#turn % this.#active.length] as string;
    this.#turn = (this.#turn + 1) % this.#active.length;
    return peerId;
  }

  /** Takes `peerId` out of the turns for good when another peer is left; false when it is the last one (kept). */
  setAside(peerId: string): boolean {
    const index = this.#active.indexOf(peerId);
    if (index === -1) return true;
    if (this.#active.length === 1) return false;
    this.#active.splice(index, 1);
    this.#setAside.add(peerId);
    // the peer after the one taken out keeps its turn
    if (this.#turn > index) this.#turn -= 1;
    this.#turn %= this.#active.length;
    return true;
  }

  get peerIds(): readonly string[] {
    return this.#active;
  }

  #join(): void {
    for (const peerId of this.sameChain())
      if (!this.#active.includes(peerId) && !this.#setAside.has(peerId)) this.#active.push(peerId);
  }
}
