import type { SMTNodeList } from '../lib/tree/index.js';
import type { BinaryDB, KestrelDatabases } from './database.js';

/** A put with LMDB's append flag: false when the key is not after every key of the database. */
export const appendSync = (db: BinaryDB, key: Buffer, value: Buffer): boolean =>
  (db.putSync as (key: Buffer, value: Buffer, options: { append: boolean }) => unknown).call(db, key, value, {
    append: true,
  }) === true;

/** Tree nodes written into an empty tree database: as appends when they come in hash order; inside a write transaction. */
export const appendTreeNodes = (dbs: Pick<KestrelDatabases, 'smt'>, nodes: SMTNodeList): void => {
  if (!nodes.ascending)
    nodes.forEach((hash, data) => {
      dbs.smt.putSync(hash, data);
    });
  else
    nodes.forEach((hash, data) => {
      if (!appendSync(dbs.smt, hash, data))
        throw new Error(`Tree node ${hash.toString('hex')} is out of order, or the tree database is not empty`);
    });
};
