import type { RootDatabase } from 'lmdb';
import type { AggregateCommit, BlockHeader } from '../../lib/chain/block.js';
import { decodeBlockHeader, encodeBlockHeader } from '../../lib/chain/block.js';
import type { CCMWithHeight } from '../../lib/interop/ccu_inbox_update.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import { decodeTransaction, encodeTransaction, transactionID } from '../../lib/transaction/index.js';
import { openPluginDatabase } from '../plugin_database.js';
import type { SentCCM, StoredValidatorsData } from './schemas.js';
import { aggregateCommitCodec, ccmsAtHeightCodec, lastSentCCMCodec, validatorsDataCodec } from './schemas.js';

/** Key prefixes, as @klayr/chain-connector-plugin's constants.js (no by-height validators index: headers carry the hash). */
const PREFIX = { header: 1, aggregateCommit: 2, validatorsData: 3, ccms: 5, lastSentCCM: 6, ccu: 7, meta: 8 } as const;
const META = { lastCertifiedHeight: 1, headersKeptFrom: 2, ccmsKeptFrom: 3, lastCertifiedValidatorsHash: 4 } as const;

type HeightTable = 'header' | 'aggregateCommit' | 'ccms';

const heightKey = (table: HeightTable, height: number): Buffer => {
  const key = Buffer.alloc(5);
  key[0] = PREFIX[table];
  key.writeUInt32BE(height, 1);
  return key;
};
const prefixed = (prefix: number, rest: Uint8Array = Buffer.alloc(0)) => Buffer.concat([Buffer.from([prefix]), rest]);
const metaKey = (name: keyof typeof META) => prefixed(PREFIX.meta, Buffer.from([META[name]]));
const uint32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** What one committed block adds to the store. */
export interface BlockRecord {
  header: BlockHeader;
  ccms: CCMWithHeight[];
  validatorsData: StoredValidatorsData;
}

/**
 * The chain connector's own LMDB environment (`<dataPath>/plugins/chain_connector`): block
 * headers, aggregate commits (by the height they certify), validators data by validators hash,
 * CCMs by height, the last sent CCM and the sent CCUs.
 */
export class ChainConnectorStore {
  private constructor(private readonly db: RootDatabase<Buffer, Buffer>) {}

  static open(dir: string): ChainConnectorStore {
    return new ChainConnectorStore(openPluginDatabase(dir, 'chain_connector'));
  }

  close(): Promise<void> {
    return this.db.close();
  }

  saveBlock({ header, ccms, validatorsData }: BlockRecord): void {
    const { aggregateCommit } = header;
    this.db.transactionSync(() => {
      this.db.putSync(heightKey('header', header.height), encodeBlockHeader(header));
      // as Klayr: only commits that carry a signature are kept
      if (aggregateCommit.aggregationBits.length > 0 || aggregateCommit.certificateSignature.length > 0) {
        this.db.putSync(
          heightKey('aggregateCommit', aggregateCommit.height),
          aggregateCommitCodec.encode(aggregateCommit),
        );
      }
      if (ccms.length > 0) this.db.putSync(heightKey('ccms', header.height), ccmsAtHeightCodec.encode({ ccms }));
      this.db.putSync(
        prefixed(PREFIX.validatorsData, validatorsData.validatorsHash),
        validatorsDataCodec.encode(validatorsData),
      );
    });
  }

  /** Undoes saveBlock for a deleted tip: its header, the commit it carried, its CCMs; validators data last seen there goes back to the header below or away. */
  deleteBlock(header: BlockHeader): void {
    this.db.transactionSync(() => {
      this.db.removeSync(heightKey('header', header.height));
      this.db.removeSync(heightKey('ccms', header.height));
      const commit = this.aggregateCommit(header.aggregateCommit.height);
      const below = this.header(header.height - 1);
      // the same commit may also be carried by the block below (a generator repeats the last one)
      if (commit !== undefined && below?.aggregateCommit.height !== commit.height)
        this.db.removeSync(heightKey('aggregateCommit', commit.height));
      const data = this.validatorsData(header.validatorsHash);
      if (data?.height === header.height) {
        const key = prefixed(PREFIX.validatorsData, header.validatorsHash);
        if (below?.validatorsHash.equals(header.validatorsHash) === true)
          this.db.putSync(key, validatorsDataCodec.encode({ ...data, height: below.height }));
        else this.db.removeSync(key);
      }
    });
  }

  header(height: number): BlockHeader | undefined {
    const bytes = this.db.get(heightKey('header', height));
    return bytes === undefined ? undefined : decodeBlockHeader(bytes);
  }

  aggregateCommit(height: number): AggregateCommit | undefined {
    const bytes = this.db.get(heightKey('aggregateCommit', height));
    return bytes === undefined ? undefined : aggregateCommitCodec.decode(bytes);
  }

  validatorsData(validatorsHash: Buffer): StoredValidatorsData | undefined {
    const bytes = this.db.get(prefixed(PREFIX.validatorsData, validatorsHash));
    return bytes === undefined ? undefined : validatorsDataCodec.decode(bytes);
  }

  /** Values of a height table in [from, to], highest first (or lowest first). */
  #between(table: HeightTable, from: number, to: number, order: 'descending' | 'ascending'): Buffer[] {
    if (to < from) return [];
    const low = heightKey(table, from);
    const high = heightKey(table, to);
    // keys are 5 bytes: nothing lies between (height) and (height + 1), and range ends are exclusive
    const above = Buffer.concat([high, Buffer.from([0])]);
    const below = from === 0 ? Buffer.from([PREFIX[table]]) : heightKey(table, from - 1);
    const range =
      order === 'descending'
        ? this.db.getRange({ start: above, end: below, reverse: true })
        : this.db.getRange({ start: low, end: above });
    const values: Buffer[] = [];
    for (const { key, value } of range) if (key.compare(low) >= 0 && key.compare(high) <= 0) values.push(value);
    return values;
  }

  headersBetween(from: number, to: number): BlockHeader[] {
    return this.#between('header', from, to, 'descending').map(decodeBlockHeader);
  }

  aggregateCommitsBetween(
    from: number,
    to: number,
    order: 'descending' | 'ascending' = 'descending',
  ): AggregateCommit[] {
    return this.#between('aggregateCommit', from, to, order).map((v) => aggregateCommitCodec.decode(v));
  }

  ccmsBetween(from: number, to: number, order: 'descending' | 'ascending' = 'descending'): CCMWithHeight[] {
    return this.#between('ccms', from, to, order).flatMap((v) => ccmsAtHeightCodec.decode(v).ccms);
  }

  allValidatorsData(): StoredValidatorsData[] {
    return [
      ...this.db.getRange({
        start: prefixed(PREFIX.validatorsData + 1),
        end: prefixed(PREFIX.validatorsData),
        reverse: true,
      }),
    ].map(({ value }) => validatorsDataCodec.decode(value));
  }

  lastSentCCM(): SentCCM | undefined {
    const bytes = this.db.get(prefixed(PREFIX.lastSentCCM));
    return bytes === undefined ? undefined : lastSentCCMCodec.decode(bytes);
  }

  setLastSentCCM(ccm: SentCCM): void {
    this.db.putSync(prefixed(PREFIX.lastSentCCM), lastSentCCMCodec.encode(ccm));
  }

  saveCCU(tx: TransactionObject): void {
    this.db.putSync(prefixed(PREFIX.ccu, transactionID(tx)), encodeTransaction(tx));
  }

  /** Sent CCUs, highest nonce first (as Klayr lists them). */
  sentCCUs(): TransactionObject[] {
    const txs = [...this.db.getRange({ start: prefixed(PREFIX.ccu), end: prefixed(PREFIX.ccu + 1) })].map(({ value }) =>
      decodeTransaction(value),
    );
    return txs.sort((a, b) => (a.nonce === b.nonce ? 0 : a.nonce < b.nonce ? 1 : -1));
  }

  deleteCCU(id: Buffer): void {
    this.db.removeSync(prefixed(PREFIX.ccu, id));
  }

  #meta(name: keyof typeof META): number {
    return this.db.get(metaKey(name))?.readUInt32BE(0) ?? 0;
  }

  /** The receiving chain's last certified height of this chain, as last read (0 before the first read). */
  get lastCertifiedHeight(): number {
    return this.#meta('lastCertifiedHeight');
  }

  /** The validators hash of the receiving chain's last certificate of this chain, as last read. */
  get lastCertifiedValidatorsHash(): Buffer | undefined {
    return this.db.get(metaKey('lastCertifiedValidatorsHash'));
  }

  setLastCertificate(height: number, validatorsHash: Buffer): void {
    this.db.transactionSync(() => {
      this.db.putSync(metaKey('lastCertifiedHeight'), uint32(height));
      this.db.putSync(metaKey('lastCertifiedValidatorsHash'), validatorsHash);
    });
  }

  /** Headers and aggregate commits below this height were pruned. */
  get headersKeptFrom(): number {
    return this.#meta('headersKeptFrom');
  }

  /** CCMs below this height were pruned. */
  get ccmsKeptFrom(): number {
    return this.#meta('ccmsKeptFrom');
  }

  /**
   * Removes headers and aggregate commits below `headersFrom` at heights `keep` does not name,
   * CCMs below `ccmsFrom`, and validators data last seen below `headersFrom` unless it is
   * `keepHash`'s; then records the new lower bounds. A no-op when nothing is below them.
   */
  prune({
    headersFrom,
    ccmsFrom,
    keep,
    keepHash,
  }: {
    headersFrom: number;
    ccmsFrom: number;
    keep: (height: number) => boolean;
    keepHash?: Buffer;
  }): void {
    const removeBelow = (table: HeightTable, from: number, kept: (height: number) => boolean) => {
      const keys = [...this.db.getKeys({ start: heightKey(table, 0), end: heightKey(table, from) })];
      for (const key of keys) if (!kept(key.readUInt32BE(1))) this.db.removeSync(key);
    };
    this.db.transactionSync(() => {
      if (headersFrom > this.headersKeptFrom) {
        removeBelow('header', headersFrom, keep);
        removeBelow('aggregateCommit', headersFrom, keep);
        const entries = [
          ...this.db.getRange({ start: prefixed(PREFIX.validatorsData), end: prefixed(PREFIX.validatorsData + 1) }),
        ];
        for (const { key, value } of entries) {
          const data = validatorsDataCodec.decode(value);
          if (data.height < headersFrom && keepHash?.equals(data.validatorsHash) !== true) this.db.removeSync(key);
        }
        this.db.putSync(metaKey('headersKeptFrom'), uint32(headersFrom));
      }
      if (ccmsFrom > this.ccmsKeptFrom) {
        removeBelow('ccms', ccmsFrom, () => false);
        this.db.putSync(metaKey('ccmsKeptFrom'), uint32(ccmsFrom));
      }
    });
  }

  /** Entries in the store (for size checks). */
  count(): number {
    return this.db.getCount();
  }

  /** Bytes of every key and value in the store (what it holds, apart from LMDB's page overhead). */
  byteSize(): number {
    let bytes = 0;
    for (const { key, value } of this.db.getRange({})) bytes += key.length + value.length;
    return bytes;
  }
}
