import type { AggregateCommit } from '../../lib/chain/block.js';
import type { CCM } from '../../lib/interop/ccm_events.js';
import { ccuParamsCodec } from '../../lib/interop/ccu_build.js';
import { ccmCodec } from '../../lib/interop/ccu_inbox_update.js';
import { decodeCertificate } from '../../lib/interop/certificate.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import { transactionToJSON } from '../../lib/transaction/index.js';
import type { StoredValidatorsData } from './schemas.js';

/** The chain connector's answers, as @klayr/chain-connector-plugin's endpoint and utils write them. */

export const ccmToJSON = <T extends CCM>(ccm: T) => ({
  ...ccm,
  fee: ccm.fee.toString(),
  nonce: ccm.nonce.toString(),
  params: ccm.params.toString('hex'),
  receivingChainID: ccm.receivingChainID.toString('hex'),
  sendingChainID: ccm.sendingChainID.toString('hex'),
});

export const aggregateCommitToJSON = (c: AggregateCommit) => ({
  height: c.height,
  aggregationBits: c.aggregationBits.toString('hex'),
  certificateSignature: c.certificateSignature.toString('hex'),
});

export const validatorsDataToJSON = (d: StoredValidatorsData) => ({
  certificateThreshold: d.certificateThreshold.toString(),
  validators: d.validators.map((v) => ({
    address: v.address.toString('hex'),
    bftWeight: v.bftWeight.toString(),
    blsKey: v.blsKey.toString('hex'),
  })),
  validatorsHash: d.validatorsHash.toString('hex'),
  height: d.height,
});

const hex = (b: Buffer) => b.toString('hex');

/** A sent CCU: the transaction's JSON with its params decoded (certificate included). */
export const sentCCUToJSON = (tx: TransactionObject) => {
  const params = ccuParamsCodec.decode(tx.params);
  const certificate = params.certificate.length > 0 ? decodeCertificate(params.certificate) : undefined;
  return {
    ...transactionToJSON(tx),
    params: {
      activeValidatorsUpdate: {
        bftWeightsUpdate: params.activeValidatorsUpdate.bftWeightsUpdate.map(String),
        bftWeightsUpdateBitmap: hex(params.activeValidatorsUpdate.bftWeightsUpdateBitmap),
        blsKeysUpdate: params.activeValidatorsUpdate.blsKeysUpdate.map(hex),
      },
      certificate:
        certificate === undefined
          ? {}
          : {
              aggregationBits: hex(certificate.aggregationBits),
              blockID: hex(certificate.blockID),
              height: certificate.height,
              signature: hex(certificate.signature),
              stateRoot: hex(certificate.stateRoot),
              timestamp: certificate.timestamp,
              validatorsHash: hex(certificate.validatorsHash),
            },
      inboxUpdate: {
        crossChainMessages: params.inboxUpdate.crossChainMessages.map((bytes) => ccmToJSON(ccmCodec.decode(bytes))),
        messageWitnessHashes: params.inboxUpdate.messageWitnessHashes.map(hex),
        outboxRootWitness: {
          bitmap: hex(params.inboxUpdate.outboxRootWitness.bitmap),
          siblingHashes: params.inboxUpdate.outboxRootWitness.siblingHashes.map(hex),
        },
      },
      certificateThreshold: params.certificateThreshold.toString(),
      sendingChainID: hex(params.sendingChainID),
    },
  };
};
