import type { FrontMetrics, RequestMetrics, SuccessRecorder } from './metrics.js';

/** A request's metrics as the RPC front thread records them, applied by the main thread's RPCMetrics (applyMetricRecords). */
export type MetricRecord =
  | readonly ['success', method: string, transport: string, seconds: number]
  | readonly ['count', method: string, transport: string, outcome: string]
  | readonly ['duration', method: string, seconds: number];

/** Records are handed over at least this often while requests come (and before GET /metrics is answered). */
const FLUSH_MS = 100;

/**
 * The RPC front thread's metrics: what its dispatcher records is kept as records and handed to the
 * main thread's RPCMetrics in batches; GET /metrics is the main thread's text, asked for after the
 * records so far are handed over (messages keep their order).
 */
export class ForwardedMetrics implements RequestMetrics, FrontMetrics {
  #records: MetricRecord[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly wsClients: { inc(): void; dec(): void };

  constructor(
    readonly contentType: string,
    private readonly send: (records: MetricRecord[]) => void,
    private readonly askText: () => Promise<string>,
    wsClients: (delta: 1 | -1) => void,
  ) {
    this.wsClients = { inc: () => wsClients(1), dec: () => wsClients(-1) };
  }

  successRecorder(method: string, transport: string): SuccessRecorder {
    return (seconds) => this.#add(['success', method, transport, seconds]);
  }

  countRequest(method: string, transport: string, outcome: string): void {
    this.#add(['count', method, transport, outcome]);
  }

  observeDuration(method: string, seconds: number): void {
    this.#add(['duration', method, seconds]);
  }

  text(): Promise<string> {
    this.flush();
    return this.askText();
  }

  /** Hands over the records kept so far. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#records.length === 0) return;
    const records = this.#records;
    this.#records = [];
    this.send(records);
  }

  #add(record: MetricRecord): void {
    this.#records.push(record);
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.#timer.unref();
    }
  }
}

/** Applies the front thread's records to the main thread's metrics. */
export const applyMetricRecords = (metrics: RequestMetrics, records: readonly MetricRecord[]): void => {
  for (const record of records) {
    if (record[0] === 'success') metrics.successRecorder(record[1], record[2])(record[3]);
    else if (record[0] === 'count') metrics.countRequest(record[1], record[2], record[3]);
    else metrics.observeDuration(record[1], record[2]);
  }
};
