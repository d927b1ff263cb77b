import { computeSubstorePrefix } from '../../lib/state/keys.js';
import { TABLES } from '../../storage/tables.js';

export const MODULE_NAME_BFT = 'bft';

/**
 * The BFT stores live in the engine's state store, not in the application state tree, and
 * Klayr fixes their store prefix to four zero bytes instead of deriving it from the module name.
 */
export const MODULE_STORE_PREFIX_BFT = TABLES.bftState.prefix;
/** Substore 0 (0x0000): BFT parameters keyed by the 4-byte big-endian height they apply from. */
export const STORE_PREFIX_BFT_PARAMETERS = computeSubstorePrefix(0);
/** Substore 1 (0x8000): the single BFT votes record under the empty key. */
export const STORE_PREFIX_BFT_VOTES = computeSubstorePrefix(1);
export const EMPTY_KEY = Buffer.alloc(0);

export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const BLS_PUBLIC_KEY_LENGTH = 48;
/** Validators without a registered BLS key carry this placeholder; it may repeat. */
export const EMPTY_BLS_KEY = Buffer.alloc(BLS_PUBLIC_KEY_LENGTH, 0);
export const MAX_UINT32 = 2 ** 32 - 1;

export const DEFAULT_BFT_BATCH_SIZE = 53;
