import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { PoolStats } from '../lib/pool_stats.js';
import { CounterByLabels, HistogramByLabel } from './request_stats.js';

export type SuccessRecorder = (seconds: number) => void;

/** What the dispatcher records of the requests it answers. */
export interface RequestMetrics {
  successRecorder(method: string, transport: string): SuccessRecorder;
  countRequest(method: string, transport: string, outcome: string): void;
  observeDuration(method: string, seconds: number): void;
}

/** What the HTTP and WS servers use of the metrics: GET /metrics's text, and the open WebSockets. */
export interface FrontMetrics {
  readonly contentType: string;
  text(): Promise<string>;
  readonly wsClients: { inc(): void; dec(): void };
}

/** Prometheus metrics of the RPC front (served at GET /metrics). */
export class RPCMetrics implements RequestMetrics, FrontMetrics {
  readonly registry = new Registry();
  readonly requests: CounterByLabels;
  readonly duration: HistogramByLabel;
  readonly wsClients: Gauge;
  readonly queueDepth: Gauge<'pool'>;
  readonly poolTasks: Counter<'pool'>;
  readonly poolTaskSeconds: Counter<'pool'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'kestrel_' }); // includes event-loop lag
    this.requests = new CounterByLabels(
      'kestrel_rpc_requests_total',
      'JSON-RPC requests by method, transport and outcome',
      ['method', 'transport', 'outcome'],
    );
    this.duration = new HistogramByLabel(
      'kestrel_rpc_request_duration_seconds',
      'JSON-RPC handler latency by method',
      'method',
      [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1],
    );
    // prom-client reads any object with its metric interface when scraped
    this.registry.registerMetric(this.requests as never);
    this.registry.registerMetric(this.duration as never);
    this.wsClients = new Gauge({
      name: 'kestrel_rpc_ws_clients',
      help: 'Open WebSocket connections',
      registers: [this.registry],
    });
    this.queueDepth = new Gauge({
      name: 'kestrel_pool_queue_depth',
      help: 'Tasks waiting in each worker pool',
      labelNames: ['pool'],
      registers: [this.registry],
    });
    this.poolTasks = new Counter({
      name: 'kestrel_pool_tasks_completed_total',
      help: 'Tasks each worker pool has answered',
      labelNames: ['pool'],
      registers: [this.registry],
    });
    this.poolTaskSeconds = new Counter({
      name: 'kestrel_pool_task_seconds_total',
      help: 'Time of the tasks each worker pool has answered, from hand-off to answer',
      labelNames: ['pool'],
      registers: [this.registry],
    });
  }

  readonly #collectors: (() => void)[] = [];
  /** What a method's successful requests over one transport add to, bound once (the dispatcher keeps it per route). */
  successRecorder(method: string, transport: string): SuccessRecorder {
    const tally = this.requests.bind(method, transport, 'success');
    const series = this.duration.seriesOf(method);
    return (seconds) => {
      tally.value += 1;
      series.observe(seconds);
    };
  }

  countRequest(method: string, transport: string, outcome: string): void {
    this.requests.inc(method, transport, outcome);
  }

  observeDuration(method: string, seconds: number): void {
    this.duration.observe(method, seconds);
  }

  /** Pools report their queue depth, tasks completed and task time when scraped. */
  watchPool(pool: string, stats: () => PoolStats): void {
    let reported = { completed: 0, taskSeconds: 0 };
    this.#collectors.push(() => {
      const now = stats();
      this.queueDepth.set({ pool }, now.queued);
      this.poolTasks.inc({ pool }, now.completed - reported.completed);
      this.poolTaskSeconds.inc({ pool }, now.taskSeconds - reported.taskSeconds);
      reported = now;
    });
  }

  /** A gauge read when scraped (chain heights, pool sizes). */
  watchValue(name: string, help: string, value: () => number): void {
    const gauge = new Gauge({ name, help, registers: [this.registry] });
    this.#collectors.push(() => gauge.set(value()));
  }

  async text(): Promise<string> {
    for (const c of this.#collectors) c();
    return this.registry.metrics();
  }

  async json() {
    for (const c of this.#collectors) c();
    return this.registry.getMetricsAsJSON();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
