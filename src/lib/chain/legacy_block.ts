import type { CompiledSchema } from '../codec/index.js';
import { compile } from '../codec/index.js';
import { sha256 } from '../crypto/hash.js';
import { merkleRoot } from '../tree/index.js';
import {
  legacyBlockHeaderSchema,
  legacyBlockSchema,
  legacyChainBracketInfoSchema,
  legacyTransactionSchema,
} from './legacy_schemas.js';

/** A block of the legacy chain as peers send it and Klayr stores it: the header's bytes and the transactions' bytes. */
export interface EncodedLegacyBlock {
  header: Buffer;
  payload: Buffer[];
}

export interface LegacyBlockHeader {
  version: number;
  timestamp: number;
  height: number;
  previousBlockID: Buffer;
  transactionRoot: Buffer;
  generatorPublicKey: Buffer;
  reward: bigint;
  asset: Buffer;
  signature: Buffer;
}

export interface LegacyTransaction {
  moduleID: number;
  assetID: number;
  nonce: bigint;
  fee: bigint;
  senderPublicKey: Buffer;
  asset: Buffer;
  signatures: Buffer[];
}

/** A decoded legacy block: its header with its ID (sha256 of the header's bytes), its transactions' bytes. */
export interface LegacyBlock {
  id: Buffer;
  header: LegacyBlockHeader;
  headerBytes: Buffer;
  payload: Buffer[];
}

export interface LegacyBracketInfo {
  startHeight: number;
  snapshotBlockHeight: number;
  lastBlockHeight: number;
}

const blockCodec: CompiledSchema<EncodedLegacyBlock> = compile<EncodedLegacyBlock>(legacyBlockSchema);
const headerCodec: CompiledSchema<LegacyBlockHeader> = compile<LegacyBlockHeader>(legacyBlockHeaderSchema);
const transactionCodec: CompiledSchema<LegacyTransaction> = compile<LegacyTransaction>(legacyTransactionSchema);
const bracketCodec: CompiledSchema<LegacyBracketInfo> = compile<LegacyBracketInfo>(legacyChainBracketInfoSchema);

export const encodeLegacyBlock = (block: EncodedLegacyBlock): Buffer => blockCodec.encode(block);
export const encodeLegacyBlockHeader = (header: LegacyBlockHeader): Buffer => headerCodec.encode(header);
export const encodeLegacyTransaction = (transaction: LegacyTransaction): Buffer => transactionCodec.encode(transaction);
export const encodeLegacyBracketInfo = (info: LegacyBracketInfo): Buffer => bracketCodec.encode(info);
export const decodeLegacyBracketInfo = (bytes: Uint8Array): LegacyBracketInfo => bracketCodec.decode(bytes);

/** A legacy ID (block or transaction): sha256 of the encoded bytes, as Klayr computes both. */
export const legacyID = (bytes: Uint8Array): Buffer => sha256(bytes);

export const decodeLegacyBlockHeader = (bytes: Uint8Array): LegacyBlockHeader => headerCodec.decode(bytes);

/** Decodes a legacy block's bytes, reading the header with the version 2 schema whatever its version (as Klayr). */
export const decodeLegacyBlock = (bytes: Uint8Array): LegacyBlock => {
  const { header, payload } = blockCodec.decode(bytes);
  return { id: legacyID(header), header: headerCodec.decode(header), headerBytes: header, payload };
};

/** Klayr's decodeBlockJSON: the header's JSON with its ID, the transactions as hex. */
export const legacyBlockToJSON = (block: EncodedLegacyBlock) => ({
  header: { ...headerCodec.toJSON(headerCodec.decode(block.header)), id: legacyID(block.header).toString('hex') },
  payload: block.payload.map((tx) => tx.toString('hex')),
});

/** Klayr's getLegacyTransactionJSONWithSchema: the transaction's JSON with its ID. */
export const legacyTransactionToJSON = (bytes: Buffer) => ({
  ...transactionCodec.toJSON(transactionCodec.decode(bytes)),
  id: legacyID(bytes).toString('hex'),
});

/**
 * Checks a decoded block against the block above it, as klayr-framework's validateLegacyBlock: the
 * header within its schema, the next height, the next block's previousBlockID, the transaction root
 * over the transactions' IDs. Also refuses a header whose bytes are not the canonical encoding of what
 * they decode to (Klayr would store the re-encoding, whose hash is not the ID the link was checked with).
 */
export const validateLegacyBlock = (block: LegacyBlock, next: Pick<LegacyBlock, 'id' | 'header'>): void => {
  validateLegacyBlockAlone(block);
  if (block.header.height + 1 !== next.header.height)
    throw new Error(
      `Received block at height ${block.header.height} is not consecutive to next block ${next.header.height}`,
    );
  if (!block.id.equals(next.header.previousBlockID))
    throw new Error(`Received block ${block.id.toString('hex')} is not previous block of ${next.id.toString('hex')}`);
};

/** What a legacy block must satisfy on its own: schema, canonical header bytes, transaction root. */
export const validateLegacyBlockAlone = (block: LegacyBlock): void => {
  headerCodec.validate(block.header);
  if (!headerCodec.encode(block.header).equals(block.headerBytes))
    throw new Error(`Received block ${block.id.toString('hex')} has a header that is not canonically encoded`);
  const transactionRoot = merkleRoot(block.payload.map(legacyID));
  if (!block.header.transactionRoot.equals(transactionRoot))
    throw new Error(
      `Received block has invalid transaction root ${transactionRoot.toString('hex')}. Expected: ${block.header.transactionRoot.toString('hex')}`,
    );
};
