import { setPriority } from 'node:os';

/**
 * rpc.threadNice for the calling thread, the HTTP and WS thread: Linux keeps a nice value per thread, and
 * setpriority(PRIO_PROCESS, 0) sets the calling thread's. A value above the process's is always allowed; one
 * below it needs CAP_SYS_NICE (or root). Returns what to warn of when it is not applied.
 */
export const applyThreadNice = (nice: number | undefined): string | undefined => {
  if (nice === undefined) return undefined;
  if (process.platform !== 'linux')
    return `rpc.threadNice ${nice} is not applied: Kestrel sets one thread's priority on Linux only`;
  try {
    setPriority(0, nice);
    return undefined;
  } catch (error) {
    return (
      `rpc.threadNice ${nice} is not applied (${(error as Error).message}): a nice value below the process's needs ` +
      "CAP_SYS_NICE or root; the HTTP and WS thread runs at the process's priority"
    );
  }
};
