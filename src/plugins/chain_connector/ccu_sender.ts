import { addressFromPublicKey, addressToKlayr32 } from '../../lib/crypto/address.js';
import { publicKeyFromPrivateKey } from '../../lib/crypto/ed25519.js';
import type { CCUBuildResult } from '../../lib/interop/ccu_build.js';
import { INTEROPERABILITY_MODULE_NAME, outboxRootStoreKey } from '../../lib/interop/store_keys.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import { computeMinFee, encodeTransaction, signTransaction, transactionID } from '../../lib/transaction/index.js';
import type { OwnChainView, PluginLogger, RemoteChainClient } from '../types.js';
import type { LastCertificate } from './certificate_choice.js';
import { getFirstCertificate, getNextCertificateFromAggregateCommits } from './certificate_choice.js';
import type { ChainConnectorConfig } from './config.js';
import { trimSentCCUs } from './retention.js';
import type { SentCCM } from './schemas.js';
import type { ChainConnectorStore } from './store.js';

/** Klayr's DEFAULT_SENT_CCU_TIMEOUT: a sent CCU not seen on the receiving chain within an hour no longer blocks the next one. */
export const SENT_CCU_TIMEOUT_MS = 3_600_000;
const DEFAULT_LAST_CCM_SENT_NONCE = -1n;

interface NodeInfo {
  height: number;
  syncing: boolean;
}

const lastCertificateOf = (json: {
  height: number;
  timestamp: number;
  stateRoot: string;
  validatorsHash: string;
}): LastCertificate => ({
  height: json.height,
  timestamp: json.timestamp,
  stateRoot: Buffer.from(json.stateRoot, 'hex'),
  validatorsHash: Buffer.from(json.validatorsHash, 'hex'),
});

export interface CCUSenderOptions {
  config: ChainConnectorConfig;
  store: ChainConnectorStore;
  chain: OwnChainView;
  logger: PluginLogger;
  receivingChainID: Buffer;
  receivingIsMainchain: boolean;
  /** The relayer's private key while authorized. */
  privateKey: () => Buffer | undefined;
}

/**
 * Decides after each block whether to send a CCU, and sends it, as Klayr's BlockEventHandler and
 * CCUHandler do: the receiving chain must not be syncing and must hold this chain's account;
 * ccuFrequency blocks must have passed since its last certificate; the receiving chain must be
 * registered here; no CCU may be pending; then a new certificate or pending CCMs make a CCU,
 * built in the `ccu` pool, signed with the relayer key and posted.
 */
export class CCUSender {
  #pending?: { id: Buffer; lastCCM?: SentCCM; sentAt: number };
  #receivingRegistered = false;

  constructor(private readonly options: CCUSenderOptions) {}

  get pendingCCU(): Buffer | undefined {
    return this.#pending?.id;
  }

  /** One attempt after the block at `height`; returns the ID of the CCU sent (or saved), if any. */
  async afterBlock(height: number, remote: RemoteChainClient): Promise<Buffer | undefined> {
    const { chain, logger, config, store } = this.options;
    if (chain.syncing()) return this.#skip('debug', 'No CCU generation is possible as the node is syncing.');
    const info = (await remote.invoke('system_getNodeInfo')) as NodeInfo;
    if (info.syncing) return this.#skip('debug', 'Receiving chain is syncing.');
    await this.#checkPending(remote);
    let account: { lastCertificate: Parameters<typeof lastCertificateOf>[0] };
    try {
      account = (await remote.invoke('interoperability_getChainAccount', {
        chainID: chain.chainID.toString('hex'),
      })) as typeof account;
    } catch (error) {
      return this.#skip('info', 'Sending chain is not registered to the receiving chain yet and has no chain data.', {
        err: error,
      });
    }
    const last = lastCertificateOf(account.lastCertificate);
    if (last.height !== store.lastCertifiedHeight || !store.lastCertifiedValidatorsHash?.equals(last.validatorsHash))
      store.setLastCertificate(last.height, last.validatorsHash);
    if (config.ccuFrequency > height - last.height) {
      return this.#skip('info', 'No attempt to create CCU either due to provided ccuFrequency', {
        ccuFrequency: config.ccuFrequency,
        nextPossibleCCUHeight: config.ccuFrequency - (height - last.height),
      });
    }
    if (!this.#receivingRegistered) {
      try {
        await chain.invoke('interoperability_getChainAccount', {
          chainID: this.options.receivingChainID.toString('hex'),
        });
        this.#receivingRegistered = true;
      } catch {
        return this.#skip('info', 'Receiving chain is not registered on the sending chain yet and has no chain data.');
      }
    }
    if (this.#pending !== undefined)
      return this.#skip(
        'info',
        `Still pending CCU on the receiving CCU with tx ID ${this.#pending.id.toString('hex')}`,
      );
    const built = await this.computeCCU(last, remote);
    if (built === undefined) return this.#skip('info', `No CCU params were generated for block height ${height}`);
    const id = await this.submit(built, remote, info);
    if (id !== undefined) logger.info(`CCU transaction was successfully sent with Tx ID ${id.toString('hex')}.`);
    return id;
  }

  /** The CCU for the receiving chain's last certificate (Klayr's computeCCU), built from a committed snapshot. */
  async computeCCU(last: LastCertificate, remote: RemoteChainClient): Promise<CCUBuildResult | undefined> {
    const { store, chain, config, receivingChainID } = this.options;
    const certificate =
      last.height === 0
        ? getFirstCertificate(store, config.registrationHeight)
        : getNextCertificateFromAggregateCommits(store, chain.bftHeights(), last);
    if (certificate === undefined && last.height === 0) return undefined;
    const lastSent = store.lastSentCCM() ?? { nonce: DEFAULT_LAST_CCM_SENT_NONCE, height: last.height };
    // Klayr's plugin skips only the last sent CCM of its height; the ones before it there were sent too
    const ccms = store
      .ccmsBetween(lastSent.height, certificate?.height ?? last.height, 'ascending')
      .filter((c) => c.height !== lastSent.height || c.nonce >= lastSent.nonce);
    const inbox = (await remote.invoke('interoperability_getChannel', { chainID: chain.chainID.toString('hex') })) as {
      inbox: { size: number };
    };
    const outbox = (await chain.invoke('interoperability_getChannel', {
      chainID: receivingChainID.toString('hex'),
    })) as { outbox: { size: number } };
    const atLast = store.validatorsData(last.validatorsHash);
    if (certificate !== undefined && atLast === undefined)
      throw new Error(`No validators data at last certificate with hash at ${last.validatorsHash.toString('hex')}`);
    const atNew =
      certificate !== undefined && !last.validatorsHash.equals(certificate.validatorsHash)
        ? store.validatorsData(certificate.validatorsHash)
        : undefined;
    return chain.ccuBuilder.build({
      dataPath: chain.dataPath,
      sendingChainID: chain.chainID,
      ...(certificate !== undefined ? { certificate } : {}),
      ...(atLast !== undefined ? { validatorsAtLastCertificate: atLast } : {}),
      ...(atNew !== undefined ? { validatorsAtNewCertificate: atNew } : {}),
      outboxRootStoreKey: outboxRootStoreKey(receivingChainID),
      inboxSizeOnReceivingChain: inbox.inbox.size,
      outboxSizeOnSendingChain: outbox.outbox.size,
      lastSentCCM: { height: lastSent.height, nonce: lastSent.nonce },
      ccms,
      maxCCUSize: config.maxCCUSize,
    });
  }

  /** Signs the CCU transaction with the relayer key for the receiving chain and posts it (or only saves it with isSaveCCU). */
  async submit(built: CCUBuildResult, remote: RemoteChainClient, info: NodeInfo): Promise<Buffer | undefined> {
    const { config, store, receivingChainID, receivingIsMainchain } = this.options;
    const privateKey = this.options.privateKey();
    if (privateKey === undefined) throw new Error('There is no key enabled to submit CCU.');
    if (info.syncing) throw new Error('Receiving node is syncing.');
    const senderPublicKey = publicKeyFromPrivateKey(privateKey);
    const { nonce } = (await remote.invoke('auth_getAuthAccount', {
      address: addressToKlayr32(addressFromPublicKey(senderPublicKey)),
    })) as { nonce: string };
    const unsigned = {
      module: INTEROPERABILITY_MODULE_NAME,
      command: receivingIsMainchain ? 'submitMainchainCrossChainUpdate' : 'submitSidechainCrossChainUpdate',
      nonce: BigInt(nonce),
      senderPublicKey,
      params: built.params,
    };
    const tx: TransactionObject = signTransaction(
      { ...unsigned, fee: await this.#fee(unsigned, remote, info), signatures: [] },
      receivingChainID,
      privateKey,
    );
    const id = transactionID(tx);
    if (this.#pending?.id.equals(id) === true) return undefined;
    if (!config.isSaveCCU)
      await remote.invoke('txpool_postTransaction', { transaction: encodeTransaction(tx).toString('hex') });
    store.saveCCU(tx);
    trimSentCCUs(store, config.ccuSaveLimit);
    this.#pending = {
      id,
      sentAt: Date.now(),
      ...(built.lastCCMToBeSent !== undefined ? { lastCCM: built.lastCCMToBeSent } : {}),
    };
    return id;
  }

  /** Klayr's _getCcuFee: none up to noFeeHeight, else ccuFee (plus the account initialization fee for a new relayer) or the minimum fee, whichever is higher. */
  async #fee(
    tx: Omit<TransactionObject, 'fee' | 'signatures'>,
    remote: RemoteChainClient,
    info: NodeInfo,
  ): Promise<bigint> {
    if (info.height <= this.options.config.noFeeHeight) return 0n;
    const tokenID = Buffer.concat([this.options.receivingChainID.subarray(0, 1), Buffer.alloc(7)]).toString('hex');
    const { exists } = (await remote.invoke('token_hasUserAccount', {
      address: addressToKlayr32(addressFromPublicKey(tx.senderPublicKey)),
      tokenID,
    })) as { exists: boolean };
    const additionalFee = exists
      ? 0n
      : BigInt(((await remote.invoke('token_getInitializationFees')) as { userAccount: string }).userAccount);
    const ccuFee = BigInt(this.options.config.ccuFee) + additionalFee;
    const minFee = computeMinFee(tx, { additionalFee });
    return ccuFee > minFee ? ccuFee : minFee;
  }

  #skip(level: 'debug' | 'info', message: string, fields: object = {}): undefined {
    this.options.logger[level](fields, message);
    return undefined;
  }

  /** A pending CCU found on the receiving chain is done: its last CCM becomes the last sent one. */
  async #checkPending(remote: RemoteChainClient): Promise<void> {
    const pending = this.#pending;
    if (pending === undefined) return;
    try {
      await remote.invoke('chain_getTransactionByID', { id: pending.id.toString('hex') });
    } catch {
      if (Date.now() - pending.sentAt > SENT_CCU_TIMEOUT_MS) this.#pending = undefined;
      return;
    }
    this.options.logger.info(`CCU transaction with ${pending.id.toString('hex')} was included on the receiving chain`);
    this.#pending = undefined;
    if (pending.lastCCM !== undefined) this.options.store.setLastSentCCM(pending.lastCCM);
  }
}
