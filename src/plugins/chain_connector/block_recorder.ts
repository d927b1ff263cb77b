import type { BlockEvent } from '../../lib/chain/events.js';
import { compile } from '../../lib/codec/index.js';
import type { CCM } from '../../lib/interop/ccm_events.js';
import {
  CCM_PROCESSED_EVENT,
  CCM_PROCESSED_RESULT_KEPT,
  CCM_SEND_SUCCESS_EVENT,
  ccmProcessedDataSchema,
  ccmSendSuccessDataSchema,
} from '../../lib/interop/ccm_events.js';
import type { CCMWithHeight } from '../../lib/interop/ccu_inbox_update.js';
import { INTEROPERABILITY_MODULE_NAME } from '../../lib/interop/store_keys.js';
import type { CommittedBlock, OwnChainView } from '../types.js';
import type { ChainConnectorStore } from './store.js';

const sendSuccess = compile<{ ccm: CCM }>(ccmSendSuccessDataSchema);
const processed = compile<{ ccm: CCM; result: number; code: number }>(ccmProcessedDataSchema);

/** The mainchain of a chain's network: its first byte, then zeros. */
export const mainchainIDOf = (chainID: Buffer): Buffer => Buffer.concat([chainID.subarray(0, 1), Buffer.alloc(3)]);

/**
 * The CCMs a block's events report (Klayr's _saveOnNewBlock): every ccmSendSuccess, and every
 * ccmProcessed with result FORWARDED after them; on a mainchain only those addressed to the
 * receiving chain (a sidechain sends everything to the mainchain).
 */
export const ccmsOfEvents = (
  events: readonly BlockEvent[],
  height: number,
  receivingChainID: Buffer,
  receivingIsMainchain: boolean,
): CCMWithHeight[] => {
  const interop = events.filter((e) => e.module === INTEROPERABILITY_MODULE_NAME);
  // as Klayr's plugin: the send-success CCMs first, then the forwarded ones
  const ccms: CCM[] = [
    ...interop.filter((e) => e.name === CCM_SEND_SUCCESS_EVENT).map((e) => sendSuccess.decode(e.data).ccm),
    ...interop
      .filter((e) => e.name === CCM_PROCESSED_EVENT)
      .map((e) => processed.decode(e.data))
      .filter((data) => data.result === CCM_PROCESSED_RESULT_KEPT)
      .map((data) => data.ccm),
  ];
  return ccms
    .map((ccm) => ({ ...ccm, height }))
    .filter((ccm) => receivingIsMainchain || ccm.receivingChainID.equals(receivingChainID));
};

/** Saves what a committed block brings the chain connector: its header (and aggregate commit), CCMs, and the validators in force. */
export const recordBlock = (
  store: ChainConnectorStore,
  chain: OwnChainView,
  block: CommittedBlock,
  receivingChainID: Buffer,
  receivingIsMainchain: boolean,
): void => {
  const { height } = block.header;
  const validators = chain.activeValidatorsAt(height);
  store.saveBlock({
    header: block.header,
    ccms: ccmsOfEvents(block.events, height, receivingChainID, receivingIsMainchain),
    // Klayr's plugin parses the kly32 addresses of consensus_getBFTParametersActiveValidators as hex and so stores them empty; kept so for drop-in answers
    validatorsData: {
      validators: validators.validators.map((v) => ({ ...v, address: Buffer.alloc(0) })),
      certificateThreshold: validators.certificateThreshold,
      validatorsHash: validators.validatorsHash,
      height,
    },
  });
};
