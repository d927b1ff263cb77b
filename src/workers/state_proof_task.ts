// Piscina task: proves store keys against a committed state root, reading the node's LMDB environment read-only (once per thread).
export { proveState as default } from '../storage/snapshot.js';

/** piscina_pool.ts's destroyLoaded: answers once this module (and lmdb's addon) has loaded. */
export const loaded = (): boolean => true;
