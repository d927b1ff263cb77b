import { blsPopVerify, blsVerifyData } from './bls.js';

/** One BLS signature of tagged data by one key, e.g. a validator's single commit of a certificate. */
export interface SingleSignatureRequest {
  publicKey: Uint8Array;
  signature: Uint8Array;
  tag: string;
  chainID: Uint8Array;
  message: Uint8Array;
}

/** A BLS key and its proof of possession. */
export interface PopItem {
  pk: Uint8Array;
  proof: Uint8Array;
}

export const verifySingleSignatures = (requests: readonly SingleSignatureRequest[]): boolean[] =>
  requests.map((r) => blsVerifyData(r.tag, r.chainID, r.message, r.signature, r.publicKey));

export const verifyProofsOfPossession = (items: readonly PopItem[]): boolean[] =>
  items.map(({ pk, proof }) => blsPopVerify(pk, proof));
