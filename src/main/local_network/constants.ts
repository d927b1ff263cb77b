/** The defaults and limits of `kestrel network:local` (imported by its command, so free of imports). */

export const DEFAULT_DATA_PATH = '~/.klayr/kestrel-local';
export const DEFAULT_NODES = 3;
/** Each node generates for at least one of the devnet's 103 validators. */
export const MAX_NODES = 103;
/** The devnet's block time. */
export const DEFAULT_BLOCK_TIME = 7;
/** Klayr's default RPC port: node i serves on this one plus i. */
export const DEFAULT_FIRST_RPC_PORT = 7887;
/** Klayr's default P2P port: every node listens on it, each on an address of its own. */
export const DEFAULT_P2P_PORT = 7667;
