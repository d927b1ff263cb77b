import type { CompiledSchema, Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { BinaryDB } from '../../storage/database.js';
import { TABLES, tableKey, tableRange } from '../../storage/tables.js';

/** A validator's hash onion: its checkpoints, from the chain's end back to the seed. */
export interface HashOnion {
  count: number;
  distance: number;
  hashes: Buffer[];
}
export interface UsedHashOnion {
  count: number;
  height: number;
}

const hashOnionSchema = {
  $id: 'klayr/random/hashOnion',
  type: 'object',
  required: ['count', 'distance', 'hashes'],
  properties: {
    count: { dataType: 'uint32', fieldNumber: 1 },
    distance: { dataType: 'uint32', fieldNumber: 2 },
    hashes: { type: 'array', fieldNumber: 3, items: { dataType: 'bytes' } },
  },
} as const satisfies Schema;
const usedHashOnionsSchema = {
  title: 'Used hash onion',
  $id: '/node/forger/usedHashOnion',
  type: 'object',
  required: ['usedHashOnions'],
  properties: {
    usedHashOnions: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['count', 'height'],
        properties: { count: { dataType: 'uint32', fieldNumber: 1 }, height: { dataType: 'uint32', fieldNumber: 2 } },
      },
    },
  },
} as const satisfies Schema;
const onionCodec: CompiledSchema<HashOnion> = compile<HashOnion>(hashOnionSchema);
const usedCodec: CompiledSchema<{ usedHashOnions: UsedHashOnion[] }> = compile<{ usedHashOnions: UsedHashOnion[] }>(
  usedHashOnionsSchema,
);

const onionKey = (address: Buffer): Buffer => tableKey(TABLES.hashOnions, address);
const usedKey = (address: Buffer): Buffer => tableKey(TABLES.usedHashOnions, address);

/**
 * The random module's off-chain stores in the node's generator database: each validator's hash
 * onion and the onion counts it used at each height (Klayr's HashOnionStore / UsedHashOnionsStore).
 */
export class HashOnionStores {
  constructor(private readonly db: BinaryDB) {}

  getOnion(address: Buffer): HashOnion | undefined {
    const raw = this.db.get(onionKey(address));
    return raw === undefined ? undefined : onionCodec.decode(raw);
  }

  setOnion(address: Buffer, onion: HashOnion): void {
    this.db.putSync(onionKey(address), onionCodec.encode(onion));
  }

  allOnions(): { address: Buffer; onion: HashOnion }[] {
    const out: { address: Buffer; onion: HashOnion }[] = [];
    for (const { key, value } of this.db.getRange(tableRange(TABLES.hashOnions, 20))) {
      out.push({
        address: Buffer.from(key).subarray(TABLES.hashOnions.prefix.length),
        onion: onionCodec.decode(value),
      });
    }
    return out;
  }

  getUsed(address: Buffer): UsedHashOnion[] | undefined {
    const raw = this.db.get(usedKey(address));
    return raw === undefined ? undefined : usedCodec.decode(raw).usedHashOnions;
  }

  setUsed(address: Buffer, usedHashOnions: UsedHashOnion[]): void {
    this.db.putSync(usedKey(address), usedCodec.encode({ usedHashOnions }));
  }

  /** The latest usage (below `height` when given). */
  latestUsed(address: Buffer, height?: number): UsedHashOnion | undefined {
    return (this.getUsed(address) ?? []).reduce<UsedHashOnion | undefined>(
      (best, current) =>
        (height === undefined || current.height < height) && (best === undefined || best.height < current.height)
          ? current
          : best,
      undefined,
    );
  }

  /** Records a usage, keeping the latest and the ones above the finalized height (Klayr's setLatest). */
  recordUsed(address: Buffer, finalizedHeight: number, used: UsedHashOnion): void {
    const all = this.getUsed(address) ?? [];
    const index = all.findIndex((u) => u.count === used.count);
    if (index === -1 && used.count === 0) {
      this.setUsed(address, [used]);
      return;
    }
    if (index === -1) all.push(used);
    else all[index] = used;
    const highest = all.reduce((a, b) => (b.height > a.height ? b : a));
    this.setUsed(address, [...all.filter((u) => u !== highest && u.height > finalizedHeight), highest]);
  }
}
