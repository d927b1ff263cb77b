import type { BlockHeader } from '../../lib/chain/block.js';
import { encodeBlockHeader } from '../../lib/chain/block.js';
import type { Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import { addressFromPublicKey, addressToKlayr32 } from '../../lib/crypto/address.js';
import { publicKeyFromPrivateKey } from '../../lib/crypto/ed25519.js';
import { encodeTransaction, signTransaction, transactionID } from '../../lib/transaction/index.js';
import type { OwnChainView } from '../types.js';

const POS_MODULE = 'pos';
const REPORT_COMMAND = 'reportMisbehavior';

interface ModuleMetadata {
  name: string;
  commands: { name: string; params?: Schema }[];
}

/** The params schema of pos:reportMisbehavior, read from the node's metadata as Klayr's plugin reads it. */
export const reportParamsSchema = async (chain: Pick<OwnChainView, 'invoke'>): Promise<Schema> => {
  const { modules } = (await chain.invoke('system_getMetadata')) as { modules: ModuleMetadata[] };
  const pos = modules.find((m) => m.name === POS_MODULE);
  if (pos === undefined) throw new Error('PoS module is not registered in the application.');
  const params = pos.commands.find((c) => c.name === REPORT_COMMAND)?.params;
  if (params === undefined) throw new Error('PoM params schema is not registered in the application.');
  return params;
};

export interface ReportInput {
  /** The header kept earlier (header1 of the params, as Klayr's plugin orders them). */
  kept: BlockHeader;
  /** The header just received (header2). */
  received: BlockHeader;
  privateKey: Buffer;
  /** Klayr's `fee` setting, in beddows. */
  fee: bigint;
}

/**
 * Builds pos:reportMisbehavior for two contradicting headers, signed with the reporter's key at its
 * confirmed nonce (auth_getAuthAccount), and posts it to the node's own pool, from which it is
 * gossiped. Resolves with the transaction ID.
 */
export const postReportTransaction = async (
  chain: Pick<OwnChainView, 'invoke' | 'chainID'>,
  schema: Schema,
  { kept, received, privateKey, fee }: ReportInput,
): Promise<Buffer> => {
  const senderPublicKey = publicKeyFromPrivateKey(privateKey);
  const { nonce } = (await chain.invoke('auth_getAuthAccount', {
    address: addressToKlayr32(addressFromPublicKey(senderPublicKey)),
  })) as { nonce: string };
  const params = compile(schema).encode({ header1: encodeBlockHeader(kept), header2: encodeBlockHeader(received) });
  const tx = signTransaction(
    { module: POS_MODULE, command: REPORT_COMMAND, nonce: BigInt(nonce), fee, senderPublicKey, params, signatures: [] },
    chain.chainID,
    privateKey,
  );
  await chain.invoke('txpool_postTransaction', { transaction: encodeTransaction(tx).toString('hex') });
  return transactionID(tx);
};
