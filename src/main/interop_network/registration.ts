import { codec } from '../../lib/codec/index.js';
import { blsSignData, createAggSig, MESSAGE_TAG_CHAIN_REG } from '../../lib/crypto/index.js';
import { registrationSignatureMessageSchema } from '../../lib/interop/ccm_params.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import { computeMinFee, signTransaction } from '../../lib/transaction/index.js';
import {
  mainchainRegParamsSchema,
  sidechainRegParamsSchema,
} from '../../modules/interoperability/base/command_schemas.js';

/** Klayr's CHAIN_REGISTRATION_FEE (10 KLY), which registerSidechain takes on top of the size fee. */
export const CHAIN_REGISTRATION_FEE = 1_000_000_000n;

export interface ChainValidator {
  blsKey: Buffer;
  bftWeight: bigint;
}

/** A chain's BFT parameters as consensus_getBFTParameters answers them (JSON). */
export interface BFTParametersJSON {
  validators: { blsKey: string; bftWeight: string }[];
  certificateThreshold: string;
}

/** The validators a registration names: those with a positive BFT weight, by BLS key (Klayr's order). */
export const activeValidators = (parameters: BFTParametersJSON): ChainValidator[] =>
  parameters.validators
    .map((v) => ({ blsKey: Buffer.from(v.blsKey, 'hex'), bftWeight: BigInt(v.bftWeight) }))
    .filter((v) => v.bftWeight > 0n)
    .sort((a, b) => Buffer.compare(a.blsKey, b.blsKey));

/** A transaction's sender: the public key is the second half of Klayr's 64-byte ed25519 private key. */
export interface Sender {
  privateKey: Buffer;
  nonce: bigint;
}

const signed = (
  chainID: Buffer,
  sender: Sender,
  command: string,
  params: Buffer,
  additionalFee = 0n,
  minFeePerByte?: number,
): TransactionObject => {
  const unsigned = {
    module: 'interoperability',
    command,
    nonce: sender.nonce,
    senderPublicKey: sender.privateKey.subarray(32),
    params,
  };
  const fee = computeMinFee(unsigned, { additionalFee, ...(minFeePerByte !== undefined ? { minFeePerByte } : {}) });
  return signTransaction({ ...unsigned, fee, signatures: [] }, chainID, sender.privateKey);
};

export interface SidechainRegistration {
  mainchainID: Buffer;
  sidechainID: Buffer;
  name: string;
  /** The sidechain's BFT parameters now. */
  sidechain: BFTParametersJSON;
  sender: Sender;
  /** The mainchain's escrow account initialization fee (token_getInitializationFees), paid for the sidechain's escrow account. */
  escrowInitializationFee: bigint;
  minFeePerByte?: number;
}

/**
 * interoperability:registerSidechain on the mainchain. Its fee is the size fee plus what the
 * command takes out of it: the registration fee, then the initialization fee of the sidechain's
 * escrow account (Klayr's token method initializeEscrowAccount pays it from the same fee).
 */
export const registerSidechainTransaction = (r: SidechainRegistration): TransactionObject => {
  const params = codec.encode(sidechainRegParamsSchema, {
    chainID: r.sidechainID,
    name: r.name,
    sidechainValidators: activeValidators(r.sidechain),
    sidechainCertificateThreshold: BigInt(r.sidechain.certificateThreshold),
  });
  return signed(
    r.mainchainID,
    r.sender,
    'registerSidechain',
    params,
    CHAIN_REGISTRATION_FEE + r.escrowInitializationFee,
    r.minFeePerByte,
  );
};

export interface MainchainRegistration {
  sidechainID: Buffer;
  ownName: string;
  /** The mainchain's BFT parameters now. */
  mainchain: BFTParametersJSON;
  /** The sidechain's BFT parameters now: whose keys must sign, in which order. */
  sidechain: BFTParametersJSON;
  /** BLS private keys of sidechain validators: each one whose public key is active signs. */
  blsPrivateKeys: { blsKey: Buffer; blsPrivateKey: Buffer }[];
  sender: Sender;
  minFeePerByte?: number;
}

/**
 * The sidechain validators' aggregate signature over registrationSignatureMessage (tag KLY_CRM_,
 * the sidechain's chain ID), with aggregation bits over the sidechain's active validators sorted
 * by BLS key: what registerMainchain verifies against the sidechain's own BFT parameters.
 */
export const registrationSignature = (
  r: Omit<MainchainRegistration, 'sender' | 'minFeePerByte'>,
): { signature: Buffer; aggregationBits: Buffer } => {
  const message = codec.encode(registrationSignatureMessageSchema, {
    ownChainID: r.sidechainID,
    ownName: r.ownName,
    mainchainValidators: activeValidators(r.mainchain),
    mainchainCertificateThreshold: BigInt(r.mainchain.certificateThreshold),
  });
  const keyList = activeValidators(r.sidechain).map((v) => v.blsKey);
  const signers = r.blsPrivateKeys.filter((k) => keyList.some((key) => key.equals(k.blsKey)));
  if (signers.length === 0)
    throw new Error(
      'None of the sidechain validators whose keys this network holds is active: cannot sign the mainchain registration',
    );
  const pairs = signers.map((k) => ({
    publicKey: k.blsKey,
    signature: blsSignData(MESSAGE_TAG_CHAIN_REG, r.sidechainID, message, k.blsPrivateKey),
  }));
  return createAggSig(keyList, pairs);
};

/** interoperability:registerMainchain on the sidechain. */
export const registerMainchainTransaction = (r: MainchainRegistration): TransactionObject => {
  const { signature, aggregationBits } = registrationSignature(r);
  const params = codec.encode(mainchainRegParamsSchema, {
    ownChainID: r.sidechainID,
    ownName: r.ownName,
    mainchainValidators: activeValidators(r.mainchain),
    mainchainCertificateThreshold: BigInt(r.mainchain.certificateThreshold),
    signature,
    aggregationBits,
  });
  return signed(r.sidechainID, r.sender, 'registerMainchain', params, 0n, r.minFeePerByte);
};
