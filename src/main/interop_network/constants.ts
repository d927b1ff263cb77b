/**
 * The fixed facts of `kestrel network:interop`'s two chains: the mainchain is Kestrel's embedded
 * devnet, the sidechain a devnet of its own on the same network (chain IDs share the first byte).
 */
export const MAINCHAIN_ID = '04000000';
export const SIDECHAIN_ID = '04000001';
/** The sidechain's name in the mainchain's registry (Klayr's rule: [a-z0-9!@$&_.], 1–32 characters). */
export const SIDECHAIN_NAME = 'kestrel_sidechain';
/** The sidechain's own token: local ID 0 of its chain. */
export const SIDECHAIN_TOKEN_ID = `${SIDECHAIN_ID}00000000`;

export const DEFAULT_MAINCHAIN_PORT = 7887;
export const DEFAULT_SIDECHAIN_PORT = 7888;

/**
 * The sidechain's validators: few, so that a single node reaches finality (and certificates for
 * CCUs) within a few blocks. All keys are local; the set never changes (see sidechain_genesis.ts).
 */
export const SIDECHAIN_VALIDATORS = 4;
/** `keys:create --chainid` of the sidechain's generator and BLS key paths. */
export const SIDECHAIN_KEY_CHAINID = 1;
/** Balance of each sidechain genesis account (1,000,000 tokens of 10^8 beddows). */
export const SIDECHAIN_GENESIS_BALANCE = 100_000_000_000_000n;

/**
 * Accounts (index i of m/44'/134'/i' of each chain's passphrase). The user account sends the
 * registrations and the cross-chain transfers; each chain's relayer account pays for the CCUs the
 * other chain's chainConnector posts on it, so the two never compete for a nonce.
 */
export const USER_ACCOUNT_INDEX = 0;
export const RELAYER_ACCOUNT_INDEX = 1;

/**
 * The sidechain's genesis block under <dataPath>/config/. Not `genesis_block.blob`: `kestrel start`
 * compares a saved file of that name with its network preset's (the devnet's) and refuses another
 * chain's, whereas a data path whose config names its own genesis file is a chain of its own, which
 * start runs from its saved config (so `kestrel start -d <network>/sidechain` works too).
 */
export const SIDECHAIN_GENESIS_FILE = 'sidechain_genesis_block';

/**
 * The mainchain's genesis block under <dataPath>/config/ where the network has one of its own
 * (`--mainchain-validators`): not `genesis_block.blob`, for the reason above.
 */
export const MAINCHAIN_GENESIS_FILE = 'mainchain_genesis_block';
