/** The servers of the RPC bench (bench/rpc_server.ts starts one; bench/rpc.bench.ts starts them all). */
export const SERVER_KINDS = ['kestrel', 'kestrel-per-call', 'klayr', 'bare', 'fixed'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];
