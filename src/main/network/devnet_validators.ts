/** The devnet's validator counts (imported by commands, so free of imports). */

/** Validators registered in the devnet's genesis block, each with its keys in dev-validators.json. */
export const DEVNET_VALIDATORS = 103;

/**
 * The most genesis validators (pos genesisData.initValidators) a devnet genesis block may name:
 * Klayr's PoS genesis rule refuses more than pos.numberActiveValidators, 51 on the devnet.
 */
export const MAX_GENESIS_VALIDATORS = 51;
