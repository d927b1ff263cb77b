/** Klayr Core's hash onion size: a million hashes, every thousandth kept (apart from hash_onion.ts so that the CLI can show them without loading sodium). */
export const DEFAULT_HASH_ONION_COUNT = 1_000_000;
export const DEFAULT_HASH_ONION_DISTANCE = 1000;
