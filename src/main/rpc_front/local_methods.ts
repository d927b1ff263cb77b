/**
 * The methods the RPC front thread answers itself, from its own handles on LMDB and the write-behind
 * sets the main thread hands it: module endpoints that read committed state and their module's
 * config, nothing else (no tip, pool, peers or off-chain store; pos_getPendingUnlocks reads the tip and stays on
 * the main thread). Everything else is answered by the
 * main thread. test/main/rpc_front.test.ts checks each answer against the main thread's.
 */
export const FRONT_THREAD_METHODS: readonly string[] = [
  'token_getBalance',
  'token_getBalances',
  'token_getTotalSupply',
  'token_getSupportedTokens',
  'token_isSupported',
  'token_getEscrowedAmounts',
  'token_getInitializationFees',
  'token_hasUserAccount',
  'token_hasEscrowAccount',
  'auth_getAuthAccount',
  'pos_getValidator',
  'pos_getAllValidators',
  'pos_getValidatorsByStake',
  'pos_getStaker',
  'pos_getLockedStakedAmount',
  'pos_getLockedReward',
  'pos_getClaimableRewards',
  'pos_getExpectedSharedRewards',
];
