// Entry of a ThreadPool thread: answers each message with the task module's default export applied to its payload.
import { parentPort, workerData } from 'node:worker_threads';
import { READY } from './thread_pool.js';

const { default: run } = (await import((workerData as { task: string }).task)) as { default: (payload: unknown) => unknown };

parentPort!.postMessage(READY);

parentPort!.on('message', async ({ id, payload }: { id: number; payload: unknown }) => {
  try {
    parentPort!.postMessage({ id, result: await run(payload) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
