import { Worker } from 'node:worker_threads';
import { terminateStarted } from './startup.js';

interface Thread {
  worker: Worker;
  /** Its task module loaded. A thread that dies before that is not replaced: the module cannot load. */
  ready: boolean;
  inFlight: Map<number, Queued>;
  /** Settles once its task module loaded or it ended: a close terminates it only then (see startup.ts). */
  started: Promise<void>;
}

/** The weights of a thread's tasks in flight (e.g. transactions in a batch), for picking the least loaded thread. */
const loadOf = (thread: Thread): number => {
  let load = 0;
  for (const { weight } of thread.inFlight.values()) load += weight;
  return load;
};

type Reply = { id: number; result: unknown } | { id: number; error: string };

interface Queued {
  readonly id: number;
  readonly payload: unknown;
  readonly transferList: ArrayBuffer[];
  readonly weight: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Tasks a thread holds at once: the one it runs and two more, so it never waits for a message
 * between two, even while the main thread is slow to answer (measured best for the verify pool's
 * batches of 8 on 2 cores); the rest wait here and go to whichever thread frees up first (a slow
 * or descheduled thread does not keep a long queue of its own while another idles).
 */
export const TASKS_PER_THREAD = 3;

/** What a thread is started with. */
export interface ThreadData {
  /** URL of the task module. */
  readonly task: string;
  /** Added to the threads' nice value on Linux (at most 19): 0 keeps the process's. */
  readonly niceness: number;
}

export interface ThreadPoolOptions {
  /**
   * Background threads (nice > 0) give way to the main thread whenever it has work: on a machine
   * with as many busy threads as cores, the event loop (RPC front, block generation, the code
   * preparing the next batches) is not descheduled for milliseconds behind them.
   */
  readonly niceness?: number;
  /**
   * A thread takes more than TASKS_PER_THREAD tasks while the weight it holds is below this: enough
   * work to outlast a stretch of the main thread that answers no message (a block's execution), when
   * the tasks are small (the verify pool's eager batches of 8 signatures). Default 0: TASKS_PER_THREAD alone.
   */
  readonly weightAhead?: number;
}

/** What thread_entry.js posts once its task module has loaded. */
export const READY = 'ready';

/**
 * A fixed set of worker threads, each running `thread_entry.js` over one task module; a task
 * goes to the thread with the least work in flight (by the weights given) that has room for it. Bare worker_threads
 * messages: on a 2-core machine Piscina spent 70-250 µs of CPU per task (measured), close to an
 * ed25519 verify, and the signature pool sends a task per handful of transactions. A thread that
 * dies fails its tasks and is replaced.
 */
export class ThreadPool<T, R> {
  readonly #threads: Thread[] = [];
  #nextID = 0;
  readonly #queue: Queued[] = [];
  #queueHead = 0;
  #closed = false;
  /** Why a thread died before its task module loaded: the pool refuses work from then on instead of restarting threads forever. */
  #broken?: Error;

  readonly #task: URL;
  readonly #niceness: number;
  readonly #weightAhead: number;

  /** `task`: a module of this folder (as compiled), or any module's URL. */
  constructor(task: string | URL, threads: number, options: ThreadPoolOptions = {}) {
    this.#task = typeof task === 'string' ? new URL(`./${task}`, import.meta.url) : task;
    this.#niceness = options.niceness ?? 0;
    this.#weightAhead = options.weightAhead ?? 0;
    if (!Number.isFinite(this.#weightAhead) || this.#weightAhead < 0)
      throw new RangeError(`weightAhead must be a finite number >= 0, got ${this.#weightAhead}`);
    if (!Number.isSafeInteger(this.#niceness) || this.#niceness < 0 || this.#niceness > 19)
      throw new RangeError(`niceness must be an integer in 0..19, got ${this.#niceness}`);
    if (!Number.isSafeInteger(threads) || threads < 1)
      throw new RangeError(`threads must be a positive integer, got ${threads}`);
    for (let i = 0; i < threads; i++) this.#threads.push(this.#spawn());
  }

  /** Tasks waiting for a thread, and tasks sent but not answered beyond one per thread. */
  get queueSize(): number {
    return (
      this.#queue.length - this.#queueHead + this.#threads.reduce((sum, t) => sum + Math.max(0, t.inFlight.size - 1), 0)
    );
  }

  run(payload: T, transferList: ArrayBuffer[] = [], weight = 1): Promise<R> {
    if (this.#closed) return Promise.reject(new Error('The thread pool is closed'));
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({
        id: this.#nextID++,
        payload,
        transferList,
        weight,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.#dispatch();
    });
  }

  /** Hands waiting tasks to the least loaded threads that have room. */
  #dispatch(): void {
    while (this.#queueHead < this.#queue.length) {
      let thread: Thread | undefined;
      for (const t of this.#threads)
        if (this.#hasRoom(t) && (thread === undefined || loadOf(t) < loadOf(thread))) thread = t;
      if (thread === undefined) return;
      const task = this.#queue[this.#queueHead];
      this.#queue[this.#queueHead++] = undefined as unknown as Queued;
      if (this.#queueHead === this.#queue.length) {
        this.#queue.length = 0;
        this.#queueHead = 0;
      }
      if (thread.inFlight.size === 0) thread.worker.ref();
      thread.inFlight.set(task.id, task);
      thread.worker.postMessage({ id: task.id, payload: task.payload }, task.transferList);
    }
  }

  #hasRoom(thread: Thread): boolean {
    return thread.inFlight.size < TASKS_PER_THREAD || loadOf(thread) < this.#weightAhead;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#failQueued(new Error('The thread pool is closed'));
    await Promise.all(this.#threads.map((t) => terminateStarted(t.worker, t.started)));
  }

  #failQueued(error: Error): void {
    const waiting = this.#queue.slice(this.#queueHead);
    this.#queue.length = 0;
    this.#queueHead = 0;
    for (const task of waiting) task.reject(error);
  }

  #spawn(): Thread {
    const worker = new Worker(new URL('./thread_entry.js', import.meta.url), {
      workerData: { task: this.#task.href, niceness: this.#niceness } satisfies ThreadData,
    });
    let started = (): void => undefined;
    const thread: Thread = { worker, ready: false, inFlight: new Map(), started: new Promise((r) => (started = r)) };
    worker.unref();
    worker.once('exit', started);
    worker.on('message', (reply: Reply | typeof READY) => {
      if (reply === READY) {
        thread.ready = true;
        started();
        return;
      }
      const pending = thread.inFlight.get(reply.id);
      if (pending === undefined) return;
      thread.inFlight.delete(reply.id);
      if (thread.inFlight.size === 0) worker.unref();
      if ('error' in reply) pending.reject(new Error(reply.error));
      else pending.resolve(reply.result);
      this.#dispatch();
    });
    const fail = (error: Error): void => {
      for (const pending of thread.inFlight.values()) pending.reject(error);
      thread.inFlight.clear();
      if (this.#closed) return;
      if (!thread.ready) {
        this.#broken ??= error;
        this.#failQueued(error);
        return;
      }
      const index = this.#threads.indexOf(thread);
      if (index >= 0) this.#threads[index] = this.#spawn();
      this.#dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`A worker thread of ${this.#task.pathname} exited with code ${code}`)));
    return thread;
  }
}
