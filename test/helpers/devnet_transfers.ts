import { codec } from '../../src/lib/codec/index.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { computeMinFee, signTransaction } from '../../src/lib/transaction/index.js';
import { transferParamsSchema } from '../../src/modules/token/commands/transfer.js';
import type { DevValidatorKey } from './devnet.js';

const DEVNET_CHAIN_ID = Buffer.from('04000000', 'hex');
/** The devnet's token userAccountInitializationFee. */
const USER_ACCOUNT_INITIALIZATION_FEE = 5_000_000n;

/**
 * A devnet transfer of 1000 beddows from validator `sender` (its first nonce) to `recipient`, a new account: its
 * fee pays the account's initialization, so it succeeds on the devnet genesis state.
 */
export const transferToNewAccount = (sender: DevValidatorKey, recipient: Buffer): TransactionObject => {
  const base = {
    module: 'token',
    command: 'transfer',
    nonce: 0n,
    senderPublicKey: Buffer.from(sender.publicKey, 'hex'),
    params: codec.encode(transferParamsSchema, {
      tokenID: Buffer.from('0400000000000000', 'hex'),
      amount: 1000n,
      recipientAddress: recipient,
      data: '',
    }),
  };
  const fee = computeMinFee(base, { additionalFee: USER_ACCOUNT_INITIALIZATION_FEE });
  return signTransaction({ ...base, fee, signatures: [] }, DEVNET_CHAIN_ID, Buffer.from(sender.privateKey, 'hex'));
};
