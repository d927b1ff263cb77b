// Signed mainchain transactions for the interoperability differential: registerSidechain,
// submitMainchainCrossChainUpdate, token transferCrossChain, terminateSidechainForLiveness,
// initializeMessageRecovery, recoverMessage and recoverState, with params encoded by Kestrel's codec
// in klayr-framework's schemas, signed by the devnet's genesis accounts.

import type { Schema } from '../../src/lib/codec/index.js';
import { codec } from '../../src/lib/codec/index.js';
import { addressFromPublicKey } from '../../src/lib/crypto/address.js';
import type { CCUParams } from '../../src/lib/interop/schemas.js';
import { crossChainUpdateParamsSchema } from '../../src/lib/interop/schemas.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { computeMinFee, signTransaction } from '../../src/lib/transaction/index.js';
import { devValidators } from './devnet.js';
import { devnetChainID } from './genesis_compare.js';
import { KLY, klayrInteropSchemas, klayrTokenSchemas } from './interop_oracle_partner.js';

export const CHAIN_REGISTRATION_FEE = 1000000000n;
/** The token module's default escrowAccountInitializationFee, which registration also pays out of the transaction fee. */
export const ESCROW_INITIALIZATION_FEE = 5000000n;
/** The token module's default userAccountInitializationFee (recovered accounts new on the mainchain pay it out of the fee). */
export const USER_INITIALIZATION_FEE = 5000000n;

export interface Account {
  privateKey: Buffer;
  publicKey: Buffer;
  address: Buffer;
  nonce: bigint;
  /** The chain its transactions are signed for. */
  chainID: Buffer;
}

/** A devnet genesis account (funded, a genesis validator), on the devnet mainchain or a sidechain started from the devnet genesis. */
export const devAccount = (i: number, chainID: Buffer = devnetChainID): Account => {
  const k = devValidators()[i]!;
  const publicKey = Buffer.from(k.publicKey, 'hex');
  return {
    privateKey: Buffer.from(k.privateKey, 'hex'),
    publicKey,
    address: addressFromPublicKey(publicKey),
    nonce: 0n,
    chainID,
  };
};

export interface SignedTx {
  tx: TransactionObject;
  from: Account;
}

const sign = (
  from: Account,
  module: string,
  command: string,
  schema: Schema,
  params: Record<string, unknown> | CCUParams,
  extraFee: bigint,
): SignedTx => {
  const base = {
    module,
    command,
    nonce: from.nonce++,
    senderPublicKey: from.publicKey,
    params: codec.encode(schema, params as Record<string, unknown>),
  };
  return {
    tx: signTransaction(
      { ...base, fee: computeMinFee(base, { additionalFee: extraFee }), signatures: [] },
      from.chainID,
      from.privateKey,
    ),
    from,
  };
};

/** A transaction the chain refused does not use its nonce. */
export const unsend = ({ from }: SignedTx): void => {
  from.nonce--;
};

export const registerSidechainTx = (from: Account, params: Record<string, unknown>, extraFee = 0n): SignedTx =>
  sign(
    from,
    'interoperability',
    'registerSidechain',
    klayrInteropSchemas.sidechainRegParams,
    params,
    CHAIN_REGISTRATION_FEE + ESCROW_INITIALIZATION_FEE + extraFee,
  );

export const ccuTx = (from: Account, params: CCUParams, extraFee = 0n): SignedTx =>
  sign(from, 'interoperability', 'submitMainchainCrossChainUpdate', crossChainUpdateParamsSchema, params, extraFee);

/** A CCU submitted on a sidechain (from the mainchain). */
export const sidechainCCUTx = (from: Account, params: CCUParams, extraFee = 0n): SignedTx =>
  sign(from, 'interoperability', 'submitSidechainCrossChainUpdate', crossChainUpdateParamsSchema, params, extraFee);

export const initializeStateRecoveryTx = (
  from: Account,
  params: { chainID: Buffer; sidechainAccount: Buffer; bitmap: Buffer; siblingHashes: Buffer[] },
): SignedTx =>
  sign(
    from,
    'interoperability',
    'initializeStateRecovery',
    klayrInteropSchemas.stateRecoveryInitParamsSchema,
    params,
    0n,
  );

export const registerMainchainTx = (from: Account, params: Record<string, unknown>): SignedTx =>
  sign(from, 'interoperability', 'registerMainchain', klayrInteropSchemas.mainchainRegParams, params, 0n);

export const transferCrossChainTx = (
  from: Account,
  receivingChainID: Buffer,
  recipientAddress: Buffer,
  amount: bigint,
  messageFee: bigint,
  extraFee = 0n,
): SignedTx =>
  sign(
    from,
    'token',
    'transferCrossChain',
    klayrTokenSchemas.crossChainTransferParamsSchema,
    { tokenID: KLY, amount, receivingChainID, recipientAddress, data: '', messageFee, messageFeeTokenID: KLY },
    extraFee,
  );

export const terminateForLivenessTx = (from: Account, chainID: Buffer): SignedTx =>
  sign(
    from,
    'interoperability',
    'terminateSidechainForLiveness',
    klayrInteropSchemas.terminateSidechainForLivenessParamsSchema,
    { chainID },
    0n,
  );

export const initializeMessageRecoveryTx = (
  from: Account,
  params: { chainID: Buffer; channel: Buffer; bitmap: Buffer; siblingHashes: Buffer[] },
): SignedTx =>
  sign(
    from,
    'interoperability',
    'initializeMessageRecovery',
    klayrInteropSchemas.messageRecoveryInitializationParamsSchema,
    params,
    0n,
  );

export const recoverMessageTx = (
  from: Account,
  params: { chainID: Buffer; crossChainMessages: Buffer[]; idxs: number[]; siblingHashes: Buffer[] },
): SignedTx =>
  sign(from, 'interoperability', 'recoverMessage', klayrInteropSchemas.messageRecoveryParamsSchema, params, 0n);

export const recoverStateTx = (
  from: Account,
  params: {
    chainID: Buffer;
    module: string;
    storeEntries: { substorePrefix: Buffer; storeKey: Buffer; storeValue: Buffer; bitmap: Buffer }[];
    siblingHashes: Buffer[];
  },
  extraFee = 0n,
): SignedTx =>
  sign(from, 'interoperability', 'recoverState', klayrInteropSchemas.stateRecoveryParamsSchema, params, extraFee);
