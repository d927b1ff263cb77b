import type { MetricRecord } from '../../rpc/forwarded_metrics.js';
import type { HttpWsEngine } from '../../rpc/http_ws_start.js';
import type { Transport } from '../../rpc/registry.js';
import type { CommitNews } from '../../storage/commit_feed.js';
import type { ApplicationConfig } from '../config/types.js';

/** What the RPC front thread is started with. */
export interface FrontThreadData {
  readonly config: ApplicationConfig;
  /** The HTTP/WS settings that are data (the dispatcher, hub, metrics and health stay on the main thread). */
  readonly settings: {
    host: string;
    port: number;
    http: boolean;
    ws: boolean;
    maxBodySize: number;
    bodyTimeoutMs: number;
    maxBackpressure: number;
    accessControlAllowOrigin: string;
  };
  readonly engine: HttpWsEngine;
  readonly allowedMethods: readonly string[];
  readonly version: string;
  /** GET /metrics's content type; undefined when the node serves no metrics. */
  readonly metricsContentType: string | undefined;
  /** One int32 the thread sets to 1 once it has closed its server on `closeServerNow` (the main thread waits on it). */
  readonly serverClosed: SharedArrayBuffer;
}

/** What the RPC front thread asks or tells the main thread. */
export type FromFront =
  /** `nice`: the thread's nice value as it serves (rpc.threadNice, where applied). */
  | { t: 'listening'; port: number; kind: 'uws' | 'node'; nice: number }
  | { t: 'failed'; error: { name: string; message: string } }
  | { t: 'warn'; message: string }
  /** Requests for the main thread's dispatcher, gathered over one turn of the thread's event loop (one message, not one each). */
  | { t: 'requests'; batch: { id: number; text: string; transport: Transport }[] }
  | { t: 'health'; id: number }
  | { t: 'metrics'; id: number }
  | { t: 'records'; records: MetricRecord[] }
  | { t: 'wsClients'; delta: 1 | -1 }
  | { t: 'handlerFailed'; method: string; error: string }
  /** An uncaught error: the thread closes and ends (the main thread starts it again). */
  | { t: 'crashed'; message: string };

/** What the main thread answers or tells the RPC front thread. */
export type ToFront =
  /** The answers the dispatcher gave at once to one `requests` message (the others come one by one as `value`). */
  | { t: 'answers'; answers: [id: number, text: string][] }
  /** One answer: a request's text that came later, health's value, GET /metrics's text. */
  | { t: 'value'; id: number; value: unknown }
  | { t: 'refused'; id: number; message: string }
  | { t: 'event'; name: string; text: string }
  | { t: 'news'; news: CommitNews }
  | { t: 'close' }
  /** The process is exiting: close the server at once and say so in `serverClosed` (no turn of the main thread's loop is left). */
  | { t: 'closeServerNow' };
