import type { Logger } from 'pino';
import { PENALTY_BAN } from '../../lib/chain/p2p_penalties.js';
import type { TransactionIDs, TransactionsResponse } from '../../lib/chain/p2p_schemas.js';
import {
  getTransactionRequestSchema,
  getTransactionsResponseSchema,
  postTransactionsAnnouncementSchema,
} from '../../lib/chain/p2p_schemas.js';
import { compile } from '../../lib/codec/index.js';
import { allDistinct, decodePayload } from './decode_payload.js';
import type { Network } from './network.js';

/** Klayr's release limit: transactions per getTransactions answer and IDs per announcement. */
export const RELEASE_LIMIT = 100;
/** klayr-framework's generator limit on getTransactions and announcements: 3 per peer per 10 s. */
const RATE_LIMIT = 3;

/** The pool and the chain as peers see them. */
export interface TransactionSource {
  /** A transaction's bytes from the pool, else from the chain. */
  bytesByID(id: Buffer): Buffer | undefined;
  /** Whether the pool or the chain holds it. */
  knows(id: Buffer): boolean;
  /** Up to `limit` processable pooled transactions. */
  processable(limit: number): Buffer[];
  /**
   * A transaction from a peer, decoded, checked and pooled; `invalid` when it fails the pool's or
   * the chain's checks (no penalty, as Klayr's InvalidTransactionError); throws when undecodable.
   */
  receive(bytes: Buffer): Promise<'added' | 'invalid'>;
}

const encodeTransactions = (transactions: Buffer[]): Buffer =>
  compile<TransactionsResponse>(getTransactionsResponseSchema).encode({ transactions });

/** getTransactions and postTransactionsAnnouncement, as klayr-framework's generator serves them. */
export const registerTransactionProcedures = (
  network: Network,
  pool: TransactionSource,
  logger: Logger,
  onAnnouncement: (ids: readonly Buffer[]) => void = () => undefined,
): void => {
  network.registerProcedure('getTransactions', (data, peerId) => {
    network.rateLimiter.count('getTransactions', peerId, RATE_LIMIT);
    if (data === undefined || data.length === 0) return encodeTransactions(pool.processable(RELEASE_LIMIT));
    const { transactionIds } = decodePayload<TransactionIDs>(
      network,
      getTransactionRequestSchema,
      data,
      peerId,
      'getTransactions',
    );
    if (!allDistinct(transactionIds)) {
      network.applyPenalty(peerId, PENALTY_BAN);
      throw new Error('Received invalid getTransactions body');
    }
    const found = transactionIds.flatMap((id) => pool.bytesByID(id) ?? []);
    return encodeTransactions(found);
  });

  network.registerEvent('postTransactionsAnnouncement', (data, peerId) => {
    network.rateLimiter.count('postTransactionsAnnouncement', peerId, RATE_LIMIT);
    const { transactionIds } = decodePayload<TransactionIDs>(
      network,
      postTransactionsAnnouncementSchema,
      data,
      peerId,
      'postTransactionsAnnouncement',
    );
    onAnnouncement(transactionIds);
    const unknown = transactionIds.filter((id) => !pool.knows(id));
    if (unknown.length === 0) return;
    fetchTransactions(network, pool, unknown, peerId).catch((err: unknown) =>
      logger.debug({ err, peerId }, 'Failed to fetch announced transactions'),
    );
  });
};

const fetchTransactions = async (
  network: Network,
  pool: TransactionSource,
  ids: Buffer[],
  peerId: string,
): Promise<void> => {
  const request = compile<TransactionIDs>(getTransactionRequestSchema).encode({ transactionIds: ids });
  const { data } = await network.requestFromPeer(peerId, 'getTransactions', request);
  try {
    if (data === undefined) throw new Error('getTransactions: empty answer');
    const { transactions } = compile<TransactionsResponse>(getTransactionsResponseSchema).decode(data);
    for (const bytes of transactions) if ((await pool.receive(bytes)) === 'invalid') return;
  } catch (error) {
    network.applyPenalty(peerId, PENALTY_BAN);
    throw error;
  }
};
