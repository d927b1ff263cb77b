/** Klayr's bootstrap period after a migration, in rounds (the migration announcement's 587). */
export const DEFAULT_INIT_ROUNDS = 587;
/** The initial validators: the top 51 by active position. */
export const DEFAULT_INIT_VALIDATORS = 51;
/** klayr-migrator's gap between the snapshot block and the successor's genesis block (SNAPSHOT_TIME_GAP), in seconds. */
export const DEFAULT_GENESIS_TIME_GAP = 3600;
/** Blocks read at a time while collecting the proofs of possession (klayr-migrator's --page-size default). */
export const DEFAULT_PAGE_SIZE = 100_000;
