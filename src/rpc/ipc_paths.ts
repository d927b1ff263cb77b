import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The sockets @klayr/api-client's createIPCClient(dataPath) connects to (Klayr Core's external IPC). */
export const ipcSocketPaths = (dataPath: string) => {
  const dir = join(resolve(dataPath.replace('~', homedir())), 'tmp', 'sockets');
  return {
    dir,
    pub: `ipc://${join(dir, 'external.pub.ipc')}`,
    sub: `ipc://${join(dir, 'external.sub.ipc')}`,
    rpc: `ipc://${join(dir, 'engine.external.rpc.ipc')}`,
  };
};
