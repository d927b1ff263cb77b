export { P2PPortInUseError, RequestFailError, SendFailError } from './errors.js';
export { P2P } from './p2p.js';
export { resolvePeerAddresses } from './resolve.js';
export type * from './types.js';
