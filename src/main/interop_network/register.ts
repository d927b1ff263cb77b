import type { TransactionObject } from '../../lib/transaction/index.js';
import { encodeTransaction, transactionID } from '../../lib/transaction/index.js';
import type { RPCClient } from '../../rpc/client.js';
import { RPCCallError } from '../../rpc/client.js';
import { isMethodNotFound, nodeInfo, pollUntil } from '../child_nodes/rpc.js';
import type { KeyEntry } from '../commands/keys/derive.js';
import { MAINCHAIN_ID, SIDECHAIN_ID, SIDECHAIN_NAME } from './constants.js';
import type { BFTParametersJSON, Sender } from './registration.js';
import { registerMainchainTransaction, registerSidechainTransaction } from './registration.js';

/** Whether the chain has an account for `chainID` (a registration's effect on each side). */
export const hasChainAccount = async (client: RPCClient, chainID: string): Promise<boolean> => {
  try {
    await client.invoke('interoperability_getChainAccount', { chainID });
    return true;
  } catch (e) {
    if (e instanceof RPCCallError && !isMethodNotFound(e)) return false;
    throw e;
  }
};

export interface RegistrationParties {
  mainchain: RPCClient;
  sidechain: RPCClient;
  /** Pays registerSidechain on the mainchain (the devnet's funded account). */
  mainchainSender: KeyEntry;
  /** Pays registerMainchain on the sidechain. */
  sidechainSender: KeyEntry;
  /** The sidechain's validators' keys, which sign the mainchain registration. */
  sidechainValidators: readonly KeyEntry[];
  /** How long to wait for both registrations to take effect. */
  timeoutMs: number;
  progress: (line: string) => void;
}

export type RegistrationOutcome = 'registered' | 'already registered' | 'failed';

/**
 * The BFT parameters the chain's next block runs with, which a registration is executed (and
 * its signature checked) against. At the next height rather than the tip's: a chain at its
 * genesis block has its first parameters stored for height 1, none for height 0.
 */
const bftParameters = async (client: RPCClient): Promise<BFTParametersJSON> => {
  const { height } = await nodeInfo(client);
  return (await client.invoke('consensus_getBFTParameters', { height: height + 1 })) as BFTParametersJSON;
};

const senderOn = async (client: RPCClient, key: KeyEntry): Promise<Sender> => {
  const { nonce } = (await client.invoke('auth_getAuthAccount', { address: key.address })) as { nonce: string };
  return { privateKey: Buffer.from(key.privateKey, 'hex'), nonce: BigInt(nonce) };
};

const minFeePerByte = async (client: RPCClient): Promise<number> =>
  ((await client.invoke('fee_getMinFeePerByte')) as { minFeePerByte: number }).minFeePerByte;

const escrowInitializationFee = async (client: RPCClient): Promise<bigint> =>
  BigInt(((await client.invoke('token_getInitializationFees')) as { escrowAccount: string }).escrowAccount);

const isIncluded = async (client: RPCClient, id: string): Promise<boolean> =>
  client.invoke('chain_getTransactionByID', { id }).then(
    () => true,
    (e: unknown) => {
      if (e instanceof RPCCallError) return false;
      throw e;
    },
  );

const post = async (client: RPCClient, tx: TransactionObject): Promise<string> => {
  await client.invoke('txpool_postTransaction', { transaction: encodeTransaction(tx).toString('hex') });
  return transactionID(tx).toString('hex');
};

interface Side {
  what: string;
  client: RPCClient;
  partnerID: string;
  build: () => Promise<TransactionObject>;
}

/** Posts one side's registration unless that chain already has the partner's account; then waits for the account. */
const registerSide = async (
  side: Side,
  timeoutMs: number,
  progress: (line: string) => void,
): Promise<RegistrationOutcome> => {
  try {
    if (await hasChainAccount(side.client, side.partnerID)) {
      progress(`${side.what}: already registered`);
      return 'already registered';
    }
    const id = await post(side.client, await side.build());
    progress(`${side.what}: transaction ${id} posted`);
    // until the partner's account exists or the transaction is in a block without creating it
    await pollUntil(
      async () => (await hasChainAccount(side.client, side.partnerID)) || (await isIncluded(side.client, id)),
      timeoutMs,
    );
    if (await hasChainAccount(side.client, side.partnerID)) {
      progress(`${side.what}: done`);
      return 'registered';
    }
    const why = (await isIncluded(side.client, id))
      ? 'was included in a block but failed (see the events of its block: chain_getEvents)'
      : `is not in a block after ${timeoutMs / 1000} s`;
    progress(`${side.what}: transaction ${id} ${why}`);
  } catch (e) {
    progress(`${side.what}: failed: ${(e as Error).message || `${(e as Error).name} without a message`}`);
  }
  return 'failed';
};

/**
 * Registers the sidechain on the mainchain (interoperability:registerSidechain with the sidechain's
 * current validators) and the mainchain on the sidechain (interoperability:registerMainchain with
 * the mainchain's current validators, signed by the sidechain's validators), each unless done
 * before. A side the node refuses is reported and the other still tried.
 */
export const registerChains = async (
  p: RegistrationParties,
): Promise<{ sidechainOnMainchain: RegistrationOutcome; mainchainOnSidechain: RegistrationOutcome }> => {
  const onMainchain: Side = {
    what: `Sidechain ${SIDECHAIN_ID} (${SIDECHAIN_NAME}) on the mainchain`,
    client: p.mainchain,
    partnerID: SIDECHAIN_ID,
    build: async () =>
      registerSidechainTransaction({
        mainchainID: Buffer.from(MAINCHAIN_ID, 'hex'),
        sidechainID: Buffer.from(SIDECHAIN_ID, 'hex'),
        name: SIDECHAIN_NAME,
        sidechain: await bftParameters(p.sidechain),
        sender: await senderOn(p.mainchain, p.mainchainSender),
        escrowInitializationFee: await escrowInitializationFee(p.mainchain),
        minFeePerByte: await minFeePerByte(p.mainchain),
      }),
  };
  const onSidechain: Side = {
    what: `Mainchain ${MAINCHAIN_ID} on the sidechain`,
    client: p.sidechain,
    partnerID: MAINCHAIN_ID,
    build: async () =>
      registerMainchainTransaction({
        sidechainID: Buffer.from(SIDECHAIN_ID, 'hex'),
        ownName: SIDECHAIN_NAME,
        mainchain: await bftParameters(p.mainchain),
        sidechain: await bftParameters(p.sidechain),
        blsPrivateKeys: p.sidechainValidators.map((k) => ({
          blsKey: Buffer.from(k.plain.blsKey, 'hex'),
          blsPrivateKey: Buffer.from(k.plain.blsPrivateKey, 'hex'),
        })),
        sender: await senderOn(p.sidechain, p.sidechainSender),
        minFeePerByte: await minFeePerByte(p.sidechain),
      }),
  };
  const [sidechainOnMainchain, mainchainOnSidechain] = await Promise.all([
    registerSide(onMainchain, p.timeoutMs, p.progress),
    registerSide(onSidechain, p.timeoutMs, p.progress),
  ]);
  return { sidechainOnMainchain, mainchainOnSidechain };
};
