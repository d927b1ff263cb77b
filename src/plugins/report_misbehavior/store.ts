import type { RootDatabase } from 'lmdb';
import type { BlockHeader } from '../../lib/chain/block.js';
import { decodeBlockHeader, encodeBlockHeader } from '../../lib/chain/block.js';
import { areDistinctHeadersContradicting } from '../../lib/chain/contradiction.js';
import type { Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import { openPluginDatabase } from '../plugin_database.js';

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

/**
 * headers: generatorAddress || height -> the encoded headers, in arrival order; bft: generatorAddress ||
 * height -> each of those headers' maxHeightGenerated and maxHeightPrevoted (uint32 BE each), in the
 * same order, so that a search for a contradiction reads 8 bytes a header and decodes only the one
 * found; byHeight: height || generatorAddress -> (nothing), for clearing.
 */
const PREFIX = { headers: 0, byHeight: 1, bft: 2 } as const;
const ADDRESS_LENGTH = 20;
const BFT_ENTRY = 8;
const PRESENT = Buffer.from([1]);

const uint32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const generatorKey = (prefix: number, generator: Buffer, height: number) =>
  Buffer.concat([Buffer.from([prefix]), generator, uint32(height)]);
const headersKey = (generator: Buffer, height: number) => generatorKey(PREFIX.headers, generator, height);
const bftKey = (generator: Buffer, height: number) => generatorKey(PREFIX.bft, generator, height);
const bftEntry = (header: BlockHeader): Buffer =>
  Buffer.concat([uint32(header.maxHeightGenerated), uint32(header.maxHeightPrevoted)]);
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
    return new MisbehaviorStore(openPluginDatabase(dir, 'report_misbehavior'));
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
      const bft = bftKey(header.generatorAddress, header.height);
      this.db.putSync(bft, Buffer.concat([this.db.get(bft) ?? Buffer.alloc(0), bftEntry(header)]));
      this.db.putSync(byHeightKey(header.height, header.generatorAddress), PRESENT);
      return 'saved';
    });
  }

  /**
   * The first kept header of `header`'s generator (by height, then by arrival) that is not `header`
   * itself and contradicts it by LIP 0058's rule, as Klayr's plugin looks for one.
   */
  contradicting(header: BlockHeader): BlockHeader | undefined {
    const { generatorAddress } = header;
    const encoded = encodeBlockHeader(header);
    const from = Buffer.concat([Buffer.from([PREFIX.bft]), generatorAddress]);
    const to = Buffer.concat([from, Buffer.alloc(5, 0xff)]);
    for (const { key, value } of this.db.getRange({ start: from, end: to })) {
      const height = key.readUInt32BE(1 + ADDRESS_LENGTH);
      for (let at = 0; at + BFT_ENTRY <= value.length; at += BFT_ENTRY) {
        const kept = {
          generatorAddress,
          height,
          maxHeightGenerated: value.readUInt32BE(at),
          maxHeightPrevoted: value.readUInt32BE(at + 4),
        };
        if (!areDistinctHeadersContradicting(kept, header)) continue;
        // a header never contradicts itself
        const bytes = this.#headersAt(headersKey(generatorAddress, height))[at / BFT_ENTRY];
        if (bytes !== undefined && !bytes.equals(encoded)) return decodeBlockHeader(bytes);
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
        this.db.removeSync(bftKey(generator, at));
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
