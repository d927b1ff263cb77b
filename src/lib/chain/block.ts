import type { CompiledSchema } from '../codec/index.js';
import { compile } from '../codec/index.js';
import { signData, signingDigest, verifyDetached } from '../crypto/ed25519.js';
import { sha256 } from '../crypto/hash.js';
import { MESSAGE_TAG_BLOCK_HEADER } from '../crypto/tags.js';
import type { TransactionObject } from '../transaction/schema.js';
import { decodeTransaction, encodeTransaction, transactionID, transactionToJSON } from '../transaction/transaction.js';
import { EMPTY_HASH, merkleRoot } from '../tree/index.js';
import { blockAssetSchema, blockHeaderSchema, blockSchema, signingBlockHeaderSchema } from './schemas.js';

export interface AggregateCommit {
  height: number;
  aggregationBits: Buffer;
  certificateSignature: Buffer;
}

export interface BlockHeader {
  version: number;
  timestamp: number;
  height: number;
  previousBlockID: Buffer;
  generatorAddress: Buffer;
  transactionRoot: Buffer;
  assetRoot: Buffer;
  eventRoot: Buffer;
  stateRoot: Buffer;
  maxHeightPrevoted: number;
  maxHeightGenerated: number;
  impliesMaxPrevotes: boolean;
  validatorsHash: Buffer;
  aggregateCommit: AggregateCommit;
  signature: Buffer;
}

export interface BlockAsset {
  module: string;
  data: Buffer;
}

export interface Block {
  header: BlockHeader;
  transactions: TransactionObject[];
  assets: BlockAsset[];
}

interface EncodedBlock {
  header: Buffer;
  transactions: Buffer[];
  assets: Buffer[];
}

export const MAX_ASSET_DATA_SIZE_BYTES = 18;
const NAME = /^[a-zA-Z0-9]*$/;

const headerCodec: CompiledSchema<BlockHeader> = compile<BlockHeader>(blockHeaderSchema);
const signingCodec: CompiledSchema<Omit<BlockHeader, 'signature'>> =
  compile<Omit<BlockHeader, 'signature'>>(signingBlockHeaderSchema);
const assetCodec: CompiledSchema<BlockAsset> = compile<BlockAsset>(blockAssetSchema);
const blockCodec: CompiledSchema<EncodedBlock> = compile<EncodedBlock>(blockSchema);

export const encodeBlockHeader = (header: BlockHeader): Buffer => headerCodec.encode(header);
export const decodeBlockHeader = (bytes: Uint8Array): BlockHeader => headerCodec.decode(bytes);

/** The block ID: SHA-256 of the encoded header, signature included. */
export const blockHeaderID = (header: BlockHeader): Buffer => sha256(headerCodec.encode(header));

/** What the generator signs (tag KLY_BH_): the header without its signature. */
export const blockHeaderSigningBytes = (header: Omit<BlockHeader, 'signature'>): Buffer => {
  const { signature: _unsigned, ...signed } = header as BlockHeader;
  return signingCodec.encode(signed);
};

export const signBlockHeader = (
  header: Omit<BlockHeader, 'signature'>,
  chainID: Uint8Array,
  privateKey: Uint8Array,
): BlockHeader => ({
  ...header,
  signature: signData(MESSAGE_TAG_BLOCK_HEADER, chainID, blockHeaderSigningBytes(header), privateKey),
});

/** The digest a header's signature signs: sha256(KLY_BH_ || chainID || signing bytes). */
export const blockHeaderSigningDigest = (header: Omit<BlockHeader, 'signature'>, chainID: Uint8Array): Buffer =>
  signingDigest(MESSAGE_TAG_BLOCK_HEADER, chainID, blockHeaderSigningBytes(header));

export const verifyBlockHeaderSignature = (
  header: BlockHeader,
  generatorKey: Uint8Array,
  chainID: Uint8Array,
): boolean => verifyDetached(blockHeaderSigningDigest(header, chainID), header.signature, generatorKey);

export const encodeBlock = (block: Block): Buffer =>
  blockCodec.encode({
    header: headerCodec.encode(block.header),
    transactions: block.transactions.map(encodeTransaction),
    assets: block.assets.map((a) => assetCodec.encode(a)),
  });

export const decodeBlock = (bytes: Uint8Array): Block => {
  const raw = blockCodec.decode(bytes);
  return {
    header: headerCodec.decode(raw.header),
    transactions: raw.transactions.map(decodeTransaction),
    assets: raw.assets.map((a) => assetCodec.decode(a)),
  };
};

/** The header of an encoded block, its transactions and assets left encoded. */
export const decodeHeaderOfBlock = (bytes: Uint8Array): BlockHeader =>
  headerCodec.decode(blockCodec.decode(bytes).header);

/** LIP 0031 root of the transaction IDs. */
export const computeTransactionRoot = (transactions: readonly TransactionObject[]): Buffer =>
  merkleRoot(transactions.map(transactionID));

/** LIP 0031 root of the encoded assets. */
export const computeAssetRoot = (assets: readonly BlockAsset[]): Buffer =>
  merkleRoot(assets.map((a) => assetCodec.encode(a)));

const checkAssetOrder = (assets: readonly BlockAsset[]): void => {
  assets.forEach((asset, i) => {
    if (i === 0) return;
    const previous = assets[i - 1];
    if (previous.module > asset.module)
      throw new Error('Assets are not sorted by the module property value in lexicographical order.');
    if (previous.module === asset.module) throw new Error(`Module with ID ${asset.module} has duplicate entries.`);
  });
};

/** @klayr/chain's block validation: header, transactions, assets (names, sizes, order) and both roots. */
export const validateBlock = (
  block: Block,
  validateTransaction: (tx: TransactionObject) => void,
  transactionIDs: readonly Buffer[] = block.transactions.map(transactionID),
): void => {
  headerCodec.validate(block.header);
  if (block.header.previousBlockID.length === 0) throw new Error('Previous block id must not be empty.');
  if (block.header.signature.length !== 64) throw new Error('Signature length must be 64 bytes.');
  block.transactions.forEach(validateTransaction);
  for (const asset of block.assets) {
    assetCodec.validate(asset);
    if (!NAME.test(asset.module)) throw new Error(`Invalid module name ${asset.module}`);
    if (asset.data.length > MAX_ASSET_DATA_SIZE_BYTES)
      throw new Error(`Module with ID ${asset.module} has data size more than ${MAX_ASSET_DATA_SIZE_BYTES} bytes.`);
  }
  checkAssetOrder(block.assets);
  if (!block.header.transactionRoot.equals(merkleRoot(transactionIDs))) throw new Error('Invalid transaction root');
  if (!block.header.assetRoot.equals(computeAssetRoot(block.assets))) throw new Error('Invalid assets root');
};

/** @klayr/chain's genesis block rules; every header problem is reported at once. */
export const validateGenesisBlock = (block: Block): void => {
  const h = block.header;
  headerCodec.validate(h);
  const problems: string[] = [];
  if (h.previousBlockID.length !== 32) problems.push('Genesis block header previousBlockID must be 32 bytes');
  if (!h.generatorAddress.equals(Buffer.alloc(20)))
    problems.push('Genesis block header generator address must only contain zero bytes');
  if (!h.transactionRoot.equals(EMPTY_HASH)) problems.push('Genesis block header transaction root must be empty hash');
  if (h.maxHeightPrevoted !== h.height) problems.push('Genesis block header maxHeightPrevoted must equal height');
  if (h.maxHeightGenerated !== 0) problems.push('Genesis block header maxHeightGenerated must equal 0');
  if (!h.impliesMaxPrevotes) problems.push('Genesis block header impliesMaxPrevotes must be true');
  if (h.aggregateCommit.height !== h.height)
    problems.push('Genesis block header aggregateCommit.height must equal to the genesis height');
  if (h.aggregateCommit.certificateSignature.length !== 0)
    problems.push('Genesis block header aggregateCommit.certificateSignature must be empty bytes');
  if (h.aggregateCommit.aggregationBits.length !== 0)
    problems.push('Genesis block header aggregateCommit.aggregationBits must be empty bytes');
  if (h.signature.length !== 0) problems.push('Genesis block header signature must be empty bytes');
  if (problems.length > 0) throw new Error(problems.join('; '));
  if (block.transactions.length !== 0) throw new Error('Transactions length must be zero');
  for (const asset of block.assets) assetCodec.validate(asset);
  checkAssetOrder(block.assets);
  if (!h.assetRoot.equals(computeAssetRoot(block.assets))) throw new Error('Invalid assets root');
};

/** A header as the chain endpoints and events serve it: its JSON with its id, the fields in the order of Klayr's BlockHeader.toJSON. */
export const blockHeaderToJSON = (header: BlockHeader) => {
  const json = headerCodec.toJSON<Record<keyof BlockHeader, unknown>>(header);
  return {
    version: json.version,
    timestamp: json.timestamp,
    height: json.height,
    previousBlockID: json.previousBlockID,
    stateRoot: json.stateRoot,
    assetRoot: json.assetRoot,
    eventRoot: json.eventRoot,
    transactionRoot: json.transactionRoot,
    validatorsHash: json.validatorsHash,
    aggregateCommit: json.aggregateCommit,
    generatorAddress: json.generatorAddress,
    maxHeightPrevoted: json.maxHeightPrevoted,
    maxHeightGenerated: json.maxHeightGenerated,
    impliesMaxPrevotes: json.impliesMaxPrevotes,
    signature: json.signature,
    id: blockHeaderID(header).toString('hex'),
  };
};

/** The block as the chain endpoints serve it: header JSON with its id, transactions with ids, assets in hex. */
export const blockToJSON = (block: Block) => ({
  header: blockHeaderToJSON(block.header),
  transactions: block.transactions.map(transactionToJSON),
  assets: block.assets.map((a) => assetCodec.toJSON(a)),
});
