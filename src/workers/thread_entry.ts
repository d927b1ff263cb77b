// Entry of a ThreadPool thread: answers each message with the task module's default export applied to its payload.
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { required } from '../lib/required.js';
import type { ThreadData } from './thread_pool.js';
import { READY } from './thread_pool.js';

const { task, niceness } = workerData as ThreadData;
const port = required(parentPort, 'The parent port of this worker thread');
// Linux keeps a nice value per thread and setpriority(PRIO_PROCESS, 0) sets the calling thread's;
// elsewhere it would change the whole process, so the threads keep the default there.
if (niceness !== 0 && process.platform === 'linux') {
  try {
    setPriority(0, Math.min(19, getPriority(0) + niceness));
  } catch {
    // a thread that cannot be made nicer still does its work
  }
}

const { default: run } = (await import(task)) as { default: (payload: unknown) => unknown };

port.postMessage(READY);

port.on('message', async ({ id, payload }: { id: number; payload: unknown }) => {
  try {
    port.postMessage({ id, result: await run(payload) });
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
