import { mkdirSync } from 'node:fs';
import type { Logger } from 'pino';
import { Publisher, Router, Subscriber } from 'zeromq';
import type { Dispatcher } from './dispatcher.js';
import type { EventHub } from './events.js';
import { assertIPCSocketsFree, waitIPCSocketsClosed } from './ipc_guard.js';
import { ipcSocketPaths } from './ipc_paths.js';
import { serialQueue } from './serial_queue.js';

export interface RunningIPC {
  readonly paths: ReturnType<typeof ipcSocketPaths>;
  close(): Promise<void>;
}

/**
 * Klayr Core's IPC: a zeromq Router for requests (`[sender, json]` in, `[sender, json]` out),
 * a Publisher for events (`[eventName, notification]`), and a bound Subscriber as Klayr has.
 */
export const startIPC = async (o: {
  dataPath: string;
  dispatcher: Dispatcher;
  hub: EventHub;
  logger: Logger;
}): Promise<RunningIPC> => {
  const paths = ipcSocketPaths(o.dataPath);
  mkdirSync(paths.dir, { recursive: true });
  await assertIPCSocketsFree([paths.rpc, paths.pub, paths.sub]);
  const router = new Router();
  const pub = new Publisher();
  const sub = new Subscriber();
  await router.bind(paths.rpc);
  await pub.bind(paths.pub);
  await sub.bind(paths.sub);
  sub.subscribe();
  const reply = serialQueue();
  const publish = serialQueue();
  const removeSink = o.hub.addSink((name, text) => publish(() => pub.send([name, text])));
  const serve = (async () => {
    for await (const [sender, request] of router) {
      if (sender === undefined) continue;
      void Promise.resolve(o.dispatcher.handle(request?.toString('utf8') ?? '', 'ipc')).then((out) =>
        reply(() => router.send([sender, out])),
      );
    }
  })().catch((err: unknown) => o.logger.debug({ err }, 'IPC request loop ended'));
  // events from plugins on the bound subscriber are not used yet; drain them
  void (async () => {
    for await (const _ of sub) {
      /* ignore */
    }
  })().catch(() => undefined);
  return {
    paths,
    close: async () => {
      removeSink();
      router.close();
      pub.close();
      sub.close();
      await serve;
      await waitIPCSocketsClosed([paths.rpc, paths.pub, paths.sub]);
    },
  };
};
