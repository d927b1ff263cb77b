import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import type { RootDatabase } from 'lmdb';
import type { BlockHeader } from '../../lib/chain/block.js';
import { decodeBlockHeader, encodeBlockHeader } from '../../lib/chain/block.js';
import { areDistinctHeadersContradicting } from '../../lib/chain/contradiction.js';
import { compile } from '../../lib/codec/index.js';
import type { Schema } from '../../lib/codec/index.js';

/** The headers of one generator at one height, as @klayr/report-misbehavior-plugin 0.5.2 stores them (blockHeadersSchema). */
const blockHeadersSchema = {
  $id: '/klayr/reportMisbehavior/blockHeaders',
  type: 'object',
  required: ['blockHeaders'],
  properties: { blockHeaders: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } } },
} as const satisfies Schema;
const blockHeadersCodec = compile<{ blockHeaders: Buffer[] }>(blockHeadersSchema);

/**
 * How many distinct headers of one generator at one height are kept. Two already prove a
 * contradiction; the rest of the room is for the first ones to arrive, and a generator that
 * signs more at one height only wastes its own signatures.
 */
export const MAX_HEADERS_PER_HEIGHT = 8;

/** headers: generatorAddress || height -> the encoded headers; byHeight: height || generatorAddress -> (nothing), for clearing. */
const PREFIX = { headers: 0, byHeight: 1 } as const;
const ADDRESS_LENGTH = 20;
const PRESENT = Buffer.from([1]);

const uint32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const headersKey = (generator: Buffer, height: number) =>
  Buffer.concat([Buffer.from([PREFIX.headers]), generator, uint32(height)]);
const byHeightKey = (height: number, generator: Buffer) =>
  Buffer.concat([Buffer.from([PREFIX.byHeight]), uint32(height), generator]);

/** What became of a header handed to `save`. */
export type SaveOutcome = 'saved' | 'known' | 'full';

/**
 * The plugin's own LMDB environment (`<dataPath>/plugins/report_misbehavior`): the block headers
 * seen on the network, by generator and height, to find two that contradict each other.
 */
export class MisbehaviorStore {
  private constructor(private readonly db: RootDatabase<Buffer, Buffer>) {}

  static open(dir: string): MisbehaviorStore {
    mkdirSync(dir, { recursive: true });
    // noSync, as the chain connector's store: Klayr's plugin store is unsynced leveldb, and headers seen again are saved again
    return new MisbehaviorStore(
      open<Buffer, Buffer>({
        path: join(dir, 'report_misbehavior.lmdb'),
        encoding: 'binary',
        keyEncoding: 'binary',
        compression: false,
        noSync: true,
      }),
    );
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** Keeps `header` unless the store has it (same block ID) or holds MAX_HEADERS_PER_HEIGHT of its generator at its height. */
  save(header: BlockHeader): SaveOutcome {
    if (header.generatorAddress.length !== ADDRESS_LENGTH)
      throw new Error(`A generator address has ${ADDRESS_LENGTH} bytes, got ${header.generatorAddress.length}`);
    const key = headersKey(header.generatorAddress, header.height);
    // the block ID is the hash of these bytes: equal bytes, equal IDs
    const encoded = encodeBlockHeader(header);
    return this.db.transactionSync(() => {
      const kept = this.#headersAt(key);
      if (kept.some((bytes) => bytes.equals(encoded))) return 'known';
      if (kept.length >= MAX_HEADERS_PER_HEIGHT) return 'full';
      this.db.putSync(key, blockHeadersCodec.encode({ blockHeaders: [...kept, encoded] }));
      this.db.putSync(byHeightKey(header.height, header.generatorAddress), PRESENT);
      return 'saved';
    });
  }

  /**
   * The first kept header of `header`'s generator (by height, then by arrival) that is not `header`
   * itself and contradicts it by LIP 0058's rule, as Klayr's plugin looks for one.
   */
  contradicting(header: BlockHeader): BlockHeader | undefined {
    const encoded = encodeBlockHeader(header);
    const from = Buffer.concat([Buffer.from([PREFIX.headers]), header.generatorAddress]);
    const to = Buffer.concat([from, Buffer.alloc(5, 0xff)]);
    for (const { value } of this.db.getRange({ start: from, end: to })) {
      for (const bytes of blockHeadersCodec.decode(value).blockHeaders) {
        if (bytes.equals(encoded)) continue;
        const kept = decodeBlockHeader(bytes);
        if (areDistinctHeadersContradicting(kept, header)) return kept;
      }
    }
    return undefined;
  }

  /** The kept headers of one generator at one height, in arrival order. */
  headersAt(generatorAddress: Buffer, height: number): BlockHeader[] {
    return this.#headersAt(headersKey(generatorAddress, height)).map(decodeBlockHeader);
  }

  /** Drops every header below `height`; answers how many (generator, height) entries went. */
  clearBelow(height: number): number {
    if (height <= 0) return 0;
    const start = Buffer.from([PREFIX.byHeight]);
    const end = Buffer.concat([start, uint32(height)]);
    return this.db.transactionSync(() => {
      let cleared = 0;
      for (const key of this.db.getKeys({ start, end })) {
        const at = key.readUInt32BE(1);
        const generator = key.subarray(5, 5 + ADDRESS_LENGTH);
        this.db.removeSync(headersKey(generator, at));
        this.db.removeSync(key);
        cleared++;
      }
      return cleared;
    });
  }

  /** How many (generator, height) entries are kept. */
  entries(): number {
    const start = Buffer.from([PREFIX.byHeight]);
    return this.db.getKeysCount({ start, end: Buffer.from([PREFIX.byHeight + 1]) });
  }

  #headersAt(key: Buffer): Buffer[] {
    const value = this.db.get(key);
    return value === undefined ? [] : blockHeadersCodec.decode(value).blockHeaders;
  }
}
