import type { SMTNodeList } from '../lib/tree/index.js';
import type { BinaryDB, KestrelDatabases } from './database.js';

/** A put with LMDB's append flag: false when the key is not after every key of the database. */
export const appendSync = (db: BinaryDB, key: Buffer, value: Buffer): boolean =>
  (db.putSync as (key: Buffer, value: Buffer, options: { append: boolean }) => unknown).call(db, key, value, {
    append: true,
  }) === true;

/** Tree nodes written into an empty tree database: as appends when they come in reference order; inside a write transaction. */
export const appendTreeNodes = (dbs: Pick<KestrelDatabases, 'smt'>, nodes: SMTNodeList): void => {
  if (!nodes.ascending)
    nodes.forEach((ref, data) => {
      dbs.smt.putSync(ref, data);
    });
  else
    nodes.forEach((ref, data) => {
      if (!appendSync(dbs.smt, ref, data))
        throw new Error(`Tree node ${ref.toString('hex')} is out of order, or the tree database is not empty`);
    });
};
