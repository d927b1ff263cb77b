import { eventToJSON } from '../../lib/chain/events.js';
import { addressToKlayr32, addressFromPublicKey } from '../../lib/crypto/address.js';
import { parseHex } from '../../lib/crypto/bytes.js';
import { decodeTransaction, transactionID, transactionToJSON, validateTransaction } from '../../lib/transaction/index.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import type { ChainProcessor } from '../chain/processor.js';
import { VERIFY_STATUS } from '../state_machine/module.js';
import type { VerifyStatus } from '../state_machine/module.js';
import type { TransactionPool } from './pool.js';
import { TransactionStatus, verdictStatus } from './types.js';
import { prepareCandidate } from './candidate.js';
import type { SignatureVerifier } from '../../workers/signature_verifier.js';

/** The state machine's verify status as the pool's (OK processable, PENDING kept for later, FAIL invalid). */
export const poolStatusOf = (status: VerifyStatus): TransactionStatus =>
  status === VERIFY_STATUS.OK ? TransactionStatus.PROCESSABLE : status === VERIFY_STATUS.PENDING ? TransactionStatus.UNPROCESSABLE : TransactionStatus.INVALID;

const transactionParam = (hex: unknown): TransactionObject => {
  const tx = decodeTransaction(parseHex(hex, 'transaction'));
  validateTransaction(tx);
  return tx;
};

const hexTransaction = { transaction: { type: 'string', format: 'hex' } } as const;

/** The txpool namespace, as Klayr Core answers it. */
export const txpoolEndpoints = (chain: ChainProcessor, pool: TransactionPool, signatures?: SignatureVerifier): Record<string, EndpointDefinition> => ({
  postTransaction: {
    description: 'Verifies a transaction against the tip and adds it to the pool.',
    params: { type: 'object', required: ['transaction'], properties: hexTransaction },
    handler: async ({ params }) => {
      const tx = transactionParam(params.transaction);
      const transactionId = transactionID(tx).toString('hex');
      // signatures are checked in the worker pool, in batches; the state checks stay here
      if (signatures !== undefined) {
        const verdict = await signatures.verify(prepareCandidate(tx));
        if (verdictStatus(verdict) === TransactionStatus.INVALID) throw new Error(typeof verdict === 'object' && verdict.message !== undefined ? verdict.message : 'Transaction verification failed.');
      }
      const verified = chain.verifyTransaction(tx, false, signatures !== undefined);
      if (verified.status === VERIFY_STATUS.FAIL) throw new Error(verified.error?.message ?? 'Transaction verification failed.');
      const added = pool.addVerified(tx, poolStatusOf(verified.status));
      if (!added.ok) throw new Error(added.error.message || 'Transaction verification failed.');
      return { transactionId };
    },
  },
  getTransactionsFromPool: {
    description: 'The pooled transactions, optionally of one sender.',
    params: { type: 'object', properties: { address: { type: 'string', format: 'klayr32' } } },
    handler: ({ params }) =>
      pool
        .getAll()
        .filter((p) => params.address === undefined || addressToKlayr32(addressFromPublicKey(p.transaction.senderPublicKey)) === params.address)
        .map((p) => transactionToJSON(p.transaction)),
  },
  dryRunTransaction: {
    description: 'Executes a transaction on a copy of the committed state: the result (1 ok, 0 failed, -1 invalid) and its events.',
    params: { type: 'object', required: ['transaction'], properties: { ...hexTransaction, skipVerify: { type: 'boolean' }, strict: { type: 'boolean' } } },
    handler: ({ params }) => {
      const tx = transactionParam(params.transaction);
      if (params.skipVerify !== true) {
        const verified = chain.verifyTransaction(tx, params.strict !== true);
        if (verified.status === VERIFY_STATUS.FAIL) return { result: -1, events: [], errorMessage: verified.error?.message ?? '' };
      }
      const { result, events } = chain.dryRunTransaction(tx);
      return { result, events: events.map(eventToJSON) };
    },
  },
});
