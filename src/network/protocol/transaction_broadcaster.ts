import type { TransactionIDs } from '../../lib/chain/p2p_schemas.js';
import { postTransactionsAnnouncementSchema } from '../../lib/chain/p2p_schemas.js';
import { compile } from '../../lib/codec/index.js';
import type { Network } from './network.js';
import { RELEASE_LIMIT } from './transaction_procedures.js';

/** Klayr's release interval of transaction announcements (generator DEFAULT_RELEASE_INTERVAL). */
export const RELEASE_INTERVAL_MS = 5000;

/**
 * Announces the IDs of newly pooled transactions to every peer, up to 100 per release, as
 * klayr-framework's generator Broadcaster; IDs that left the pool meanwhile are dropped.
 */
export class TransactionBroadcaster {
  #queue = new Map<string, Buffer>();
  #timer?: NodeJS.Timeout;

  constructor(
    private readonly network: Network,
    private readonly inPool: (id: Buffer) => boolean,
    private readonly intervalMs = RELEASE_INTERVAL_MS,
  ) {}

  enqueue(id: Buffer): void {
    this.#queue.set(id.toString('latin1'), id);
  }

  start(): void {
    this.#timer ??= setInterval(() => this.release(), this.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One release: the oldest queued IDs still in the pool. */
  release(): void {
    for (const [key, id] of this.#queue) if (!this.inPool(id)) this.#queue.delete(key);
    if (this.#queue.size === 0) return;
    const batch = [...this.#queue.entries()].slice(0, RELEASE_LIMIT);
    const transactionIds = batch.map(([, id]) => id);
    this.network.broadcast(
      'postTransactionsAnnouncement',
      compile<TransactionIDs>(postTransactionsAnnouncementSchema).encode({ transactionIds }),
    );
    for (const [key] of batch) this.#queue.delete(key);
  }
}
