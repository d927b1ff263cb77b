import type { ChainConnectorConfig } from '../../plugins/chain_connector/config.js';
import type { ReportMisbehaviorConfig } from '../../plugins/report_misbehavior/config.js';
export type RpcMode = 'ipc' | 'ws' | 'http';
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'none';

export interface PeerInfo {
  ip: string;
  port: number;
}

/** Klayr Core's application config. */
export interface ApplicationConfig {
  system: {
    version: string;
    dataPath: string;
    logLevel: LogLevel;
    keepEventsForHeights: number;
    keepInclusionProofsForHeights: number;
    inclusionProofKeys: string[];
    backup: { height: number };
    enableMetrics?: boolean;
  };
  rpc: {
    modes: RpcMode[];
    host: string;
    port: number;
    allowedMethods?: string[];
    accessControlAllowOrigin?: string;
    maxBodySize?: number;
    /** Kestrel's: the nice value of the HTTP and WS thread (Linux; below the process's needs CAP_SYS_NICE). */
    threadNice?: number;
  };
  legacy?: { sync?: boolean; brackets: { startHeight: number; snapshotHeight: number; snapshotBlockID: string }[] };
  network: { version?: string; port?: number; host?: string; seedPeers: PeerInfo[]; [key: string]: unknown };
  transactionPool?: {
    maxTransactions?: number;
    maxTransactionsPerAccount?: number;
    transactionExpiryTime?: number;
    minEntranceFeePriority?: string;
    minReplacementFeeDifference?: string;
  };
  genesis: {
    block: { fromFile?: string; blob?: string };
    blockTime: number;
    bftBatchSize: number;
    chainID: string;
    maxTransactionsSize: number;
    minimumCertifyHeight?: number;
  };
  generator?: { keys: { fromFile?: string } };
  modules: Record<string, Record<string, unknown>>;
  /**
   * chainConnector and reportMisbehavior: see src/plugins/<plugin>/config.ts (Klayr's names; its defaults apply
   * when the plugin starts).
   */
  plugins: Record<string, unknown> & {
    chainConnector?: Partial<ChainConnectorConfig>;
    reportMisbehavior?: Partial<ReportMisbehaviorConfig>;
  };
}
