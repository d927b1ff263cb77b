import type { Shape } from './shape.js';
import { arrayOf } from './shape.js';

/** The interoperability records of the spec's "Resources and their fields", as the endpoints answer them. */
export const CHAIN_ACCOUNT: Shape = {
  name: 'string',
  lastCertificate: { height: 'integer', timestamp: 'integer', stateRoot: 'hex', validatorsHash: 'hex' },
  status: 'integer',
};
/** interoperability_getAllChainAccounts: the accounts without their chain IDs, as klayr-framework's chainAccountToJSON. */
export const CHAIN_ACCOUNTS: Shape = { chains: arrayOf(CHAIN_ACCOUNT) };
const BOX: Shape = { appendPath: arrayOf('hex'), root: 'hex', size: 'integer' };
export const CHANNEL: Shape = {
  messageFeeTokenID: 'hex',
  outbox: BOX,
  inbox: BOX,
  partnerChainOutboxRoot: 'hex',
  minReturnFeePerByte: 'decimal',
};
export const TERMINATED_STATE_ACCOUNT: Shape = { stateRoot: 'hex', mainchainStateRoot: 'hex', initialized: 'boolean' };
export const TERMINATED_OUTBOX_ACCOUNT: Shape = {
  outboxRoot: 'hex',
  outboxSize: 'integer',
  partnerChainInboxSize: 'integer',
};
export const CHAIN_VALIDATORS: Shape = {
  activeValidators: arrayOf({ blsKey: 'hex', bftWeight: 'decimal' }),
  certificateThreshold: 'decimal',
};
export const ESCROWED_AMOUNTS: Shape = {
  escrowedAmounts: arrayOf({ escrowChainID: 'hex', amount: 'decimal', tokenID: 'hex' }),
};
