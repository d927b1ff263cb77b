import { KESTREL_VERSION } from '../version.js';
import type { ApplicationConfig } from './types.js';

/** Klayr Core's default application config; the data path is Kestrel's own. */
export const defaultConfig = (): ApplicationConfig => ({
  system: {
    dataPath: '~/.klayr/kestrel',
    version: KESTREL_VERSION,
    keepEventsForHeights: 300,
    keepInclusionProofsForHeights: 300,
    inclusionProofKeys: [],
    logLevel: 'info',
    enableMetrics: false,
    backup: { height: 0 },
  },
  rpc: { modes: ['ipc'], port: 7887, host: '127.0.0.1', allowedMethods: [], accessControlAllowOrigin: '*' },
  legacy: { sync: false, brackets: [] },
  network: { version: '1.0', seedPeers: [], port: 7667 },
  transactionPool: {
    maxTransactions: 4096,
    maxTransactionsPerAccount: 64,
    transactionExpiryTime: 10800000,
    minEntranceFeePriority: '0',
    minReplacementFeeDifference: '10',
  },
  genesis: {
    block: { fromFile: './config/genesis_block.blob' },
    blockTime: 7,
    bftBatchSize: 53,
    chainID: '',
    maxTransactionsSize: 15360,
    minimumCertifyHeight: 1,
  },
  generator: { keys: {} },
  modules: {},
  plugins: {},
});
