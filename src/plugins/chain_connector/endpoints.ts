import { blockHeaderToJSON } from '../../lib/chain/block.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import { aggregateCommitToJSON, ccmToJSON, sentCCUToJSON, validatorsDataToJSON } from './json.js';
import { KEEP_HEIGHTS } from './retention.js';
import { authorizeRequestSchema } from './schemas.js';
import type { ChainConnectorStore } from './store.js';

const rangeParams = {
  type: 'object',
  required: ['from', 'to'],
  properties: {
    from: { type: 'integer', minimum: 0, maximum: 0xffffffff },
    to: { type: 'integer', minimum: 0, maximum: 0xffffffff },
  },
} as const;

export const NO_CCM_SENT = 'No CCM was sent so far.';

/**
 * A range the store can answer in full: from <= to, at most KEEP_HEIGHTS heights, and nothing
 * below what the store has pruned.
 */
const checkedRange = (
  params: Record<string, unknown>,
  keptFrom: number,
  what: string,
): { from: number; to: number } => {
  const from = params.from as number;
  const to = params.to as number;
  if (from > to) throw new Error(`Invalid range: from (${from}) is above to (${to}).`);
  if (to - from + 1 > KEEP_HEIGHTS)
    throw new Error(
      `Invalid range: ${from}..${to} spans ${to - from + 1} heights; the chain connector keeps ${what} of at most ${KEEP_HEIGHTS} heights, ask for ${KEEP_HEIGHTS} or fewer.`,
    );
  if (from < keptFrom)
    throw new Error(
      `Invalid range: ${what} below height ${keptFrom} were pruned from the chain connector store; ask from ${keptFrom} on.`,
    );
  return { from, to };
};

export interface AuthorizeTarget {
  enable(password: string): Promise<void>;
  disable(password: string): Promise<void>;
}

/** The chainConnector namespace (@klayr/chain-connector-plugin 0.2.2's endpoint). */
export const chainConnectorEndpoints = (store: ChainConnectorStore, key: AuthorizeTarget): Endpoints => ({
  getSentCCUs: {
    handler: () => {
      const list = store.sentCCUs();
      return { list: list.map(sentCCUToJSON), total: list.length };
    },
  },
  getAggregateCommits: {
    params: rangeParams,
    handler: ({ params }) => {
      const { from, to } = checkedRange(params, store.headersKeptFrom, 'aggregate commits');
      return store.aggregateCommitsBetween(from, to).map(aggregateCommitToJSON);
    },
  },
  getBlockHeaders: {
    params: rangeParams,
    handler: ({ params }) => {
      const { from, to } = checkedRange(params, store.headersKeptFrom, 'block headers');
      return store.headersBetween(from, to).map(blockHeaderToJSON);
    },
  },
  getCrossChainMessages: {
    params: rangeParams,
    handler: ({ params }) => {
      const { from, to } = checkedRange(params, store.ccmsKeptFrom, 'cross-chain messages');
      return store.ccmsBetween(from, to).map(ccmToJSON);
    },
  },
  getLastSentCCM: {
    handler: () => {
      const ccm = store.lastSentCCM();
      if (ccm === undefined) throw new Error(NO_CCM_SENT);
      return ccmToJSON(ccm);
    },
  },
  getAllValidatorsData: { handler: () => store.allValidatorsData().map(validatorsDataToJSON) },
  authorize: {
    params: authorizeRequestSchema,
    handler: async ({ params }) => {
      const enable = params.enable as boolean;
      await (enable ? key.enable(params.password as string) : key.disable(params.password as string));
      return { result: `Successfully ${enable ? 'enabled' : 'disabled'} the chain connector plugin.` };
    },
  },
});
