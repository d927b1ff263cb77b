import { eventToJSON } from '../../lib/chain/events.js';
import { addressToKlayr32 } from '../../lib/crypto/address.js';
import { parseHex } from '../../lib/crypto/bytes.js';
import type { EndpointDefinition } from '../../lib/endpoint/definition.js';
import { transactionHex } from '../../lib/endpoint/params.js';
import type { PreparedTransaction } from '../../lib/transaction/index.js';
import {
  decodeTransaction,
  prepareTransaction,
  transactionToJSON,
  validateTransaction,
} from '../../lib/transaction/index.js';
import type { SignatureVerifier } from '../pools/signature_verifier.js';
import { VERIFY_STATUS } from '../state_machine/module.js';
import { ingestTransaction } from '../txpool/ingest.js';
import type { TransactionPool } from '../txpool/pool.js';
import type { TransactionVerifier } from '../txpool/transaction_verifier.js';

/** The posted transaction, decoded strictly (so its bytes are its own encoding) and validated. */
export const postedTransaction = (hex: unknown): PreparedTransaction => {
  const bytes = parseHex(hex, 'transaction');
  const tx = decodeTransaction(bytes);
  validateTransaction(tx);
  return prepareTransaction(tx, bytes);
};

const hexTransaction = { transaction: transactionHex } as const;

/** The txpool namespace, as Klayr Core answers it. */
export const txpoolEndpoints = (
  verifier: TransactionVerifier,
  pool: TransactionPool,
  signatures?: SignatureVerifier,
): Record<string, EndpointDefinition> => ({
  postTransaction: {
    description: 'Verifies a transaction against the tip and adds it to the pool.',
    params: { type: 'object', required: ['transaction'], properties: hexTransaction },
    handler: async ({ params }) => {
      const tx = postedTransaction(params.transaction);
      await ingestTransaction(verifier, pool, signatures, tx);
      return { transactionId: tx.id.toString('hex') };
    },
  },
  getTransactionsFromPool: {
    description: 'The pooled transactions, optionally of one sender.',
    params: { type: 'object', properties: { address: { type: 'string', format: 'klayr32' } } },
    handler: ({ params }) =>
      pool
        .getAll()
        .filter((p) => params.address === undefined || addressToKlayr32(p.senderAddress) === params.address)
        .map((p) => transactionToJSON(p.transaction)),
  },
  dryRunTransaction: {
    description:
      'Executes a transaction on a copy of the committed state: the result (1 ok, 0 failed, -1 invalid) and its events.',
    params: {
      type: 'object',
      required: ['transaction'],
      properties: { ...hexTransaction, skipVerify: { type: 'boolean' }, strict: { type: 'boolean' } },
    },
    handler: ({ params }) => {
      const tx = postedTransaction(params.transaction);
      if (params.skipVerify !== true) {
        const verified = verifier.verify(tx, params.strict !== true);
        if (verified.status === VERIFY_STATUS.FAIL)
          return { result: -1, events: [], errorMessage: verified.error?.message ?? '' };
      }
      const { result, events } = verifier.dryRun(tx);
      return { result, events: events.map(eventToJSON) };
    },
  },
});
