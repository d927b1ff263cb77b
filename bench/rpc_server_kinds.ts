/** The servers of the RPC bench (bench/rpc_server.ts starts one; bench/rpc.bench.ts starts them all). */
export const SERVER_KINDS = ['kestrel', 'kestrel-per-call', 'klayr', 'bare', 'fixed'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

/** Every kind bench/rpc_server.ts starts: the RPC bench's and klayr-framework's token_getBalance (bench/rpc_balance.bench.ts). */
export const ALL_SERVER_KINDS = [...SERVER_KINDS, 'klayr-token'] as const;
export type AnyServerKind = (typeof ALL_SERVER_KINDS)[number];

/** The account the klayr-token server holds: token_getBalance's params and the answer it must give. */
export interface BalanceAccount {
  address: string;
  tokenID: string;
  availableBalance: string;
  lockedBalances: { module: string; amount: string }[];
}
