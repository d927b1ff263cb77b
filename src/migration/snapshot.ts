import type { Block } from '../lib/chain/block.js';
import { decodeBlock } from '../lib/chain/block.js';
import type { CompiledSchema } from '../lib/codec/index.js';
import { computeStorePrefix, computeSubstorePrefix } from '../lib/state/keys.js';
import type { BackupManifest } from '../storage/backup.js';
import { openBackup } from '../storage/backup.js';
import type { BinaryDB, KestrelDatabases } from '../storage/database.js';
import { TABLES, tableHeightKey, tableKey } from '../storage/tables.js';

export type SnapshotManifest = BackupManifest;

/**
 * A node's state backup (`<dataPath>/backup`, storage/backup.ts), opened read-only and checked
 * against its manifest; the migration reads only this, never the node's live database.
 */
export class Snapshot {
  readonly manifest: SnapshotManifest;
  readonly chainID: Buffer;
  private readonly dbs: KestrelDatabases;
  private readonly closeBackup: () => Promise<void>;

  private constructor(readonly dataPath: string) {
    const backup = openBackup(dataPath);
    this.manifest = backup.manifest;
    this.dbs = backup.dbs;
    this.closeBackup = backup.close;
    this.chainID = Buffer.from(this.manifest.chainID, 'hex');
    const { height, blockID } = this.manifest;
    const id = this.dbs.blocks.get(tableHeightKey(TABLES.blockIDsByHeight, height));
    if (id === undefined || id.toString('hex') !== blockID) {
      void this.close();
      throw new Error(`The backup under ${dataPath} does not hold block ${blockID} at height ${height}.`);
    }
  }

  /** The backup of the node whose data path is `dataPath`. */
  static open(dataPath: string): Snapshot {
    return new Snapshot(dataPath);
  }

  get height(): number {
    return this.manifest.height;
  }

  /** Every `key -> value` of one module substore, keys without the 6-byte prefix, in key order. */
  *substore<T>(module: string, substore: number, codec: CompiledSchema<T>): Generator<{ key: Buffer; value: T }> {
    const prefix = Buffer.concat([computeStorePrefix(module), computeSubstorePrefix(substore)]);
    const end = Buffer.concat([prefix, Buffer.alloc(64, 255)]);
    for (const { key, value } of this.dbs.state.getRange({ start: prefix, end })) {
      yield { key: Buffer.from(key.subarray(prefix.length)), value: codec.decode(value) };
    }
  }

  /** How many entries one module substore holds. */
  count(module: string, substore: number): number {
    const prefix = Buffer.concat([computeStorePrefix(module), computeSubstorePrefix(substore)]);
    return this.dbs.state.getCount({ start: prefix, end: Buffer.concat([prefix, Buffer.alloc(64, 255)]) });
  }

  /** One module substore entry, undefined when absent. */
  get<T>(module: string, substore: number, key: Buffer, codec: CompiledSchema<T>): T | undefined {
    const raw = this.dbs.state.get(Buffer.concat([computeStorePrefix(module), computeSubstorePrefix(substore), key]));
    return raw === undefined ? undefined : codec.decode(raw);
  }

  /** The block at `height` (undefined if the snapshot does not hold it). */
  block(height: number): Block | undefined {
    const id = this.dbs.blocks.get(tableHeightKey(TABLES.blockIDsByHeight, height));
    const raw = id === undefined ? undefined : this.dbs.blocks.get(tableKey(TABLES.blocksByID, id));
    return raw === undefined ? undefined : decodeBlock(raw);
  }

  /** The blocks from `from` to the snapshot height, `pageSize` decoded at a time (a page is read in one pass over the height index). */
  *blocks(from: number, pageSize: number): Generator<Block> {
    for (let start = from; start <= this.height; start += pageSize) {
      const last = Math.min(this.height, start + pageSize - 1);
      const ids = [
        ...this.dbs.blocks.getRange({
          start: tableHeightKey(TABLES.blockIDsByHeight, start),
          end: tableHeightKey(TABLES.blockIDsByHeight, last + 1),
        }),
      ].map((e) => e.value);
      for (const id of ids) {
        const raw = this.dbs.blocks.get(tableKey(TABLES.blocksByID, id));
        if (raw !== undefined) yield decodeBlock(raw);
      }
    }
  }

  /** How many blocks the snapshot holds from `from` to its height. */
  blockCount(from: number): number {
    return this.dbs.blocks.getCount({
      start: tableHeightKey(TABLES.blockIDsByHeight, from),
      end: tableHeightKey(TABLES.blockIDsByHeight, this.height + 1),
    });
  }

  /** The lowest height whose block the snapshot holds (blocks below it may have been pruned or never synced). */
  lowestBlockHeight(): number | undefined {
    for (const { key } of this.dbs.blocks.getRange({
      start: tableHeightKey(TABLES.blockIDsByHeight, 0),
      end: tableHeightKey(TABLES.blockIDsByHeight, this.height + 1),
      limit: 1,
    })) {
      return key.readUInt32BE(TABLES.blockIDsByHeight.prefix.length);
    }
    return undefined;
  }

  /** The generator database (the node's own records: keys, generated info), read-only. */
  get generatorDB(): BinaryDB {
    return this.dbs.generator;
  }

  close(): Promise<void> {
    return this.closeBackup();
  }
}
