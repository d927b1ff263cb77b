import { Worker } from 'node:worker_threads';

interface Thread {
  worker: Worker;
  /** Its task module loaded. A thread that dies before that is not replaced: the module cannot load. */
  ready: boolean;
  inFlight: Map<number, { weight: number; resolve: (value: unknown) => void; reject: (error: Error) => void }>;
}

/** The weights of a thread's tasks in flight (e.g. transactions in a batch), for picking the least loaded thread. */
const loadOf = (thread: Thread): number => {
  let load = 0;
  for (const { weight } of thread.inFlight.values()) load += weight;
  return load;
};

type Reply = { id: number; result: unknown } | { id: number; error: string };

/** What thread_entry.js posts once its task module has loaded. */
export const READY = 'ready';

/**
 * A fixed set of worker threads, each running `thread_entry.js` over one task module; a task
 * goes to the thread with the least work in flight (by the weights given). Bare worker_threads
 * messages: on a 2-core machine Piscina spent 70-250 µs of CPU per task (measured), close to an
 * ed25519 verify, and the signature pool sends a task per handful of transactions. A thread that
 * dies fails its tasks and is replaced.
 */
export class ThreadPool<T, R> {
  readonly #threads: Thread[] = [];
  #nextID = 0;
  #closed = false;
  /** Why a thread died before its task module loaded: the pool refuses work from then on instead of restarting threads forever. */
  #broken?: Error;

  readonly #task: URL;

  /** `task`: a module of this folder (as compiled), or any module's URL. */
  constructor(task: string | URL, threads: number) {
    this.#task = typeof task === 'string' ? new URL(`./${task}`, import.meta.url) : task;
    if (!Number.isSafeInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${threads}`);
    for (let i = 0; i < threads; i++) this.#threads.push(this.#spawn());
  }

  /** Tasks sent but not answered beyond one per thread. */
  get queueSize(): number {
    return this.#threads.reduce((sum, t) => sum + Math.max(0, t.inFlight.size - 1), 0);
  }

  run(payload: T, transferList: ArrayBuffer[] = [], weight = 1): Promise<R> {
    if (this.#closed) return Promise.reject(new Error('The thread pool is closed'));
    if (this.#broken !== undefined) return Promise.reject(this.#broken);
    const thread = this.#threads.reduce((a, b) => (loadOf(b) < loadOf(a) ? b : a));
    const id = this.#nextID++;
    return new Promise<R>((resolve, reject) => {
      if (thread.inFlight.size === 0) thread.worker.ref();
      thread.inFlight.set(id, { weight, resolve: resolve as (value: unknown) => void, reject });
      thread.worker.postMessage({ id, payload }, transferList);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#threads.map((t) => t.worker.terminate()));
  }

  #spawn(): Thread {
    const worker = new Worker(new URL('./thread_entry.js', import.meta.url), { workerData: { task: this.#task.href } });
    const thread: Thread = { worker, ready: false, inFlight: new Map() };
    worker.unref();
    worker.on('message', (reply: Reply | typeof READY) => {
      if (reply === READY) {
        thread.ready = true;
        return;
      }
      const pending = thread.inFlight.get(reply.id);
      if (pending === undefined) return;
      thread.inFlight.delete(reply.id);
      if (thread.inFlight.size === 0) worker.unref();
      if ('error' in reply) pending.reject(new Error(reply.error));
      else pending.resolve(reply.result);
    });
    const fail = (error: Error): void => {
      for (const pending of thread.inFlight.values()) pending.reject(error);
      thread.inFlight.clear();
      if (this.#closed) return;
      if (!thread.ready) {
        this.#broken ??= error;
        return;
      }
      const index = this.#threads.indexOf(thread);
      if (index >= 0) this.#threads[index] = this.#spawn();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`A worker thread of ${this.#task.pathname} exited with code ${code}`)));
    return thread;
  }
}
