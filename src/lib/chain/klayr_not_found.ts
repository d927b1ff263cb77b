/**
 * The NotFoundError lisk-db's Database raises for a missing key, naming the key Klayr Core reads (its messages
 * reach RPC clients and peers as they are).
 */
export const databaseKeyNotFound = (key: Buffer): Error =>
  new Error(`Specified key ${key.toString('hex')} does not exist`);

/** Klayr Core's blockchain database prefixes (@klayr/chain db_keys.js) of the records its chain endpoint reads. */
export const KLAYR_DB_KEY = { blocksByID: 3, blocksByHeight: 4, transactionsByID: 6 } as const;

/** The key of a record in Klayr Core's blockchain database: its one-byte prefix, then the ID or the uint32 BE height. */
export const klayrChainKey = (prefix: number, suffix: Buffer | number): Buffer => {
  if (typeof suffix !== 'number') return Buffer.concat([Buffer.from([prefix]), suffix]);
  const key = Buffer.alloc(5);
  key[0] = prefix;
  key.writeUInt32BE(suffix, 1);
  return key;
};
