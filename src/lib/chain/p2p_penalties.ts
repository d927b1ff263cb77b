/** Klayr's penalty for a peer that sends what the protocol forbids (an immediate ban). */
export const PENALTY_BAN = 100;
/** Klayr's penalty for a peer over a per-procedure rate limit. */
export const PENALTY_RATE_LIMIT = 10;
