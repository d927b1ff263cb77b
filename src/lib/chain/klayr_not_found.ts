/**
 * The NotFoundError lisk-db's Database raises for a missing key, naming the key Klayr Core reads (its messages
 * reach RPC clients and peers as they are).
 */
export const databaseKeyNotFound = (key: Buffer): Error =>
  new Error(`Specified key ${key.toString('hex')} does not exist`);

/** Whether an error (one a node answered, say) is databaseKeyNotFound's. */
export const isDatabaseKeyNotFound = (e: unknown): boolean =>
  e instanceof Error && /^Specified key [0-9a-f]+ does not exist/.test(e.message);

/** The NotFoundError lisk-db's StateDB raises for a missing state entry, naming its full state key. */
export const stateKeyNotFound = (key: Buffer): Error => new Error(`Key ${key.toString('hex')} does not exist.`);

/**
 * Klayr Core's database prefixes of the records whose absence its endpoints report: the blockchain database's
 * (@klayr/chain db_keys.js) and the legacy database's brackets (engine/legacy/constants.js).
 */
export const KLAYR_DB_KEY = { legacyBrackets: 2, blocksByID: 3, blocksByHeight: 4, transactionsByID: 6 } as const;

/** The key of a record in one of Klayr Core's databases: its one-byte prefix, then the ID or the uint32 BE height. */
export const klayrChainKey = (prefix: number, suffix: Buffer | number): Buffer => {
  if (typeof suffix !== 'number') return Buffer.concat([Buffer.from([prefix]), suffix]);
  const key = Buffer.alloc(5);
  key[0] = prefix;
  key.writeUInt32BE(suffix, 1);
  return key;
};
