// Transactions for an old devnet chain, signed with the Klayr SDK as the oracle.
import { createRequire } from 'node:module';
import { devnetPassphrase } from '../helpers/devnet.js';
import { klayrCodec, klayrCrypto, klayrTransactions } from '../helpers/klayr.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const transferSchema: any = require('klayr-framework/dist-node/modules/token/schemas').transferParamsSchema;
const stakeSchema: any = require('klayr-framework/dist-node/modules/pos/schemas').stakeCommandParamsSchema;
const authSchemas: any = require('klayr-framework/dist-node/modules/auth/schemas');
const { MESSAGE_TAG_MULTISIG_REG }: any = require('klayr-framework/dist-node/modules/auth/constants');
/* eslint-enable @typescript-eslint/no-explicit-any */

export const CHAIN_ID = Buffer.from('04000000', 'hex');
export const TOKEN_ID = Buffer.from('0400000000000000', 'hex');
export const KLY = 100_000_000n;

export interface Account {
  privateKey: Buffer;
  publicKey: Buffer;
  address: Buffer;
  klayr32: string;
}

export const account = async (passphrase: string, index = 0): Promise<Account> => {
  const privateKey: Buffer = await klayrCrypto.ed.getPrivateKeyFromPhraseAndPath(passphrase, `m/44'/134'/${index}'`);
  const publicKey: Buffer = klayrCrypto.ed.getPublicKeyFromPrivateKey(privateKey);
  return {
    privateKey,
    publicKey,
    address: klayrCrypto.address.getAddressFromPublicKey(publicKey),
    klayr32: klayrCrypto.address.getKlayr32AddressFromPublicKey(publicKey),
  };
};

/** The devnet's funded account (also its first genesis validator). */
export const funder = (): Promise<Account> => account(devnetPassphrase());

const sign = (
  from: Account,
  module: string,
  command: string,
  nonce: bigint,
  fee: bigint,
  params: unknown,
  schema: unknown,
): string => {
  const tx = { module, command, nonce, fee, senderPublicKey: from.publicKey, params, signatures: [] };
  const signed = klayrTransactions.signTransaction(tx, CHAIN_ID, from.privateKey, schema);
  return (klayrTransactions.getBytes(signed, schema) as Buffer).toString('hex');
};

export const transferTx = (from: Account, nonce: bigint, to: Buffer, amount: bigint): string =>
  sign(
    from,
    'token',
    'transfer',
    nonce,
    10_000_000n,
    { tokenID: TOKEN_ID, amount, recipientAddress: to, data: '' },
    transferSchema,
  );

export const stakeTx = (from: Account, nonce: bigint, validator: Buffer, amount: bigint): string =>
  sign(from, 'pos', 'stake', nonce, 10_000_000n, { stakes: [{ validatorAddress: validator, amount }] }, stakeSchema);

/** `owner` becomes a 2-of-2 multisignature account with `member` (each key signs the registration message). */
export const registerMultisignatureTx = (owner: Account, member: Account, nonce: bigint): string => {
  const mandatoryKeys = [owner.publicKey, member.publicKey].sort(Buffer.compare);
  const message = klayrCodec.codec.encode(authSchemas.multisigRegMsgSchema, {
    address: owner.address,
    nonce,
    numberOfSignatures: 2,
    mandatoryKeys,
    optionalKeys: [],
  });
  const signatures = mandatoryKeys.map((key) => {
    const signer = key.equals(owner.publicKey) ? owner : member;
    return klayrCrypto.ed.signData(MESSAGE_TAG_MULTISIG_REG, CHAIN_ID, message, signer.privateKey);
  });
  return sign(
    owner,
    'auth',
    'registerMultisignature',
    nonce,
    1_000_000_000n,
    { numberOfSignatures: 2, mandatoryKeys, optionalKeys: [], signatures },
    authSchemas.registerMultisignatureParamsSchema,
  );
};
