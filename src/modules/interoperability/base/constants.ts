import { EMPTY_HASH } from '../../../lib/tree/index.js';

/** klayr-framework 0.12.3 modules/interoperability/constants.js. */
export const CHAIN_REGISTRATION_FEE = 1000000000n;
export const MIN_RETURN_FEE_PER_BYTE = 1000n;
export const MAX_NUM_VALIDATORS = 199;
export const MAX_UINT64 = 2n ** 64n - 1n;
export const MAX_CCM_SIZE = 10240;
export const MAX_RESERVED_ERROR_STATUS = 63;
/** Seconds a sidechain may go without a certificate before it may be terminated for liveness. */
export const LIVENESS_LIMIT = 2419200;
export const CHAIN_NAME_MAINCHAIN = 'klayr_mainchain';
export const EMPTY_BYTES = Buffer.alloc(0);
export const EMPTY_FEE_ADDRESS = EMPTY_BYTES;
export { EMPTY_HASH };

export const CROSS_CHAIN_COMMAND_REGISTRATION = 'registration';
export const CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED = 'channelTerminated';
export const CROSS_CHAIN_COMMAND_SIDECHAIN_TERMINATED = 'sidechainTerminated';

/** Context store key set while a CCU's messages are applied. */
export const CONTEXT_STORE_KEY_CCM_PROCESSING = 'CONTEXT_STORE_KEY_CCM_PROCESSING';
/** Topic prefix of the child event queue each CCM of a CCU runs in (followed by the CCM ID). */
export const EVENT_TOPIC_CCM_EXECUTION = Buffer.from([5]);

/** LIP 0045 chain account status. */
export const CHAIN_STATUS = { REGISTERED: 0, ACTIVE: 1, TERMINATED: 2 } as const;

/** CCM status codes. */
export const CCM_STATUS = {
  OK: 0,
  CHANNEL_UNAVAILABLE: 1,
  MODULE_NOT_SUPPORTED: 2,
  CROSS_CHAIN_COMMAND_NOT_SUPPORTED: 3,
  FAILED_CCM: 4,
} as const;

/** ccmProcessed result. */
export const CCM_PROCESSED_RESULT = { APPLIED: 0, FORWARDED: 1, BOUNCED: 2, DISCARDED: 3 } as const;

/** ccmProcessed code. */
export const CCM_PROCESSED_CODE = {
  SUCCESS: 0,
  CHANNEL_UNAVAILABLE: 1,
  MODULE_NOT_SUPPORTED: 2,
  CROSS_CHAIN_COMMAND_NOT_SUPPORTED: 3,
  FAILED_CCM: 4,
  INVALID_CCM_DECODING_EXCEPTION: 5,
  INVALID_CCM_VALIDATION_EXCEPTION: 6,
  INVALID_CCM_ROUTING_EXCEPTION: 7,
  INVALID_CCM_VERIFY_CCM_EXCEPTION: 8,
  INVALID_CCM_BEFORE_CCC_EXECUTION_EXCEPTION: 10,
  INVALID_CCM_AFTER_CCC_EXECUTION_EXCEPTION: 11,
  INVALID_CCM_BEFORE_CCC_FORWARDING_EXCEPTION: 12,
} as const;

/** ccmSentFailed code. */
export const CCM_SENT_FAILED_CODE = {
  RECEIVING_CHAIN_NOT_LIVE: 1,
  MESSAGE_FEE_EXCEPTION: 11,
  INVALID_FORMAT: 13,
  INVALID_RECEIVING_CHAIN: 14,
} as const;
