import type { BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID, verifyBlockHeaderSignature } from '../../lib/chain/block.js';
import type { Schema } from '../../lib/codec/index.js';
import { ADDRESS_LENGTH, addressToKlayr32 } from '../../lib/crypto/address.js';
import { decryptRelayerKey } from '../chain_connector/relayer_key.js';
import type { CommittedBlock, Plugin, PluginContext } from '../types.js';
import type { ReportMisbehaviorConfig } from './config.js';
import { reportMisbehaviorConfig } from './config.js';
import { reportMisbehaviorEndpoints } from './endpoints.js';
import { postReportTransaction, reportParamsSchema } from './report_transaction.js';
import { MisbehaviorStore } from './store.js';

export const REPORT_MISBEHAVIOR_NAME = 'reportMisbehavior';

/**
 * How far from the tip a header is kept: Klayr's plugin drops headers this far below the highest
 * height it saw, and the pos module refuses a report whose headers are this far from the block
 * that includes it (lockingPeriodSelfStaking).
 */
export const REPORTABLE_HEIGHTS = 260000;

/**
 * The reportMisbehavior plugin (@klayr/report-misbehavior-plugin 0.5.2): keeps the headers of the
 * blocks peers send, by generator, and when one contradicts a kept header of the same generator
 * (LIP 0058) posts pos:reportMisbehavior with both, signed with the authorized key, to the node's
 * own pool. Unlike Klayr's, it keeps only headers their generator signed (with its generator key in
 * the state) and within REPORTABLE_HEIGHTS of the tip the node committed, so that a peer can neither
 * fill the store nor make it report headers the pos module refuses.
 */
export class ReportMisbehaviorPlugin implements Plugin {
  readonly name = REPORT_MISBEHAVIOR_NAME;
  readonly directory = 'report_misbehavior';
  #context?: PluginContext;
  #config?: ReportMisbehaviorConfig;
  #store?: MisbehaviorStore;
  #privateKey?: Buffer;
  /** The height of the node's tip, once known. */
  #tipHeight?: number;
  #clearTimer?: NodeJS.Timeout;
  #paramsSchema?: Schema;

  get store(): MisbehaviorStore | undefined {
    return this.#store;
  }

  /** Whether reportMisbehavior_authorize enabled reporting. */
  get enabled(): boolean {
    return this.#privateKey !== undefined;
  }

  async start(context: PluginContext): Promise<void> {
    const config = reportMisbehaviorConfig(context.config);
    this.#context = context;
    this.#config = config;
    this.#store = MisbehaviorStore.open(context.dataPath);
    try {
      context.registerEndpoints(
        reportMisbehaviorEndpoints({
          decrypt: (password) => decryptRelayerKey(config.encryptedPrivateKey, password),
          set: (privateKey) => {
            this.#privateKey = privateKey;
          },
        }),
      );
      const last = (await context.chain.invoke('chain_getLastBlock')) as { header: { height: number } };
      this.#tipHeight = last.header.height;
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.#clearTimer = setInterval(() => this.clearOldHeaders(), config.clearBlockHeadersInterval);
    this.#clearTimer.unref();
  }

  async blockCommitted(block: CommittedBlock): Promise<void> {
    this.#tipHeight = block.header.height;
  }

  async blockDeleted(header: BlockHeader): Promise<void> {
    this.#tipHeight = header.height - 1;
  }

  async blockReceived(header: BlockHeader): Promise<void> {
    const { store, context } = this.#started();
    if (!this.#reportable(header.height) || !(await this.#signedByGenerator(header))) return;
    if (store.save(header) !== 'saved') return;
    const kept = store.contradicting(header);
    if (kept === undefined) return;
    const summary = {
      generatorAddress: addressToKlayr32(header.generatorAddress),
      headers: [kept, header].map((h) => ({ id: blockHeaderID(h).toString('hex'), height: h.height })),
    };
    const privateKey = this.#privateKey;
    if (privateKey === undefined) {
      context.logger.warn(
        summary,
        'Contradicting block headers of a validator seen; not reported while reporting is disabled (reportMisbehavior_authorize)',
      );
      return;
    }
    try {
      this.#paramsSchema ??= await reportParamsSchema(context.chain);
      const id = await postReportTransaction(context.chain, this.#paramsSchema, {
        kept,
        received: header,
        privateKey,
        fee: BigInt(this.#started().config.fee),
      });
      context.logger.info({ ...summary, transactionId: id.toString('hex') }, 'Sent Report misbehavior transaction');
    } catch (error) {
      context.logger.error({ ...summary, err: error }, 'Failed to report contradicting block headers');
    }
  }

  /** Drops the headers that can no longer be reported (run every clearBlockHeadersInterval ms). */
  clearOldHeaders(): number {
    const store = this.#store;
    if (store === undefined || this.#tipHeight === undefined) return 0;
    try {
      return store.clearBelow(this.#tipHeight - REPORTABLE_HEIGHTS + 1);
    } catch (error) {
      this.#context?.logger.error({ err: error }, 'Failed to clear old block headers');
      return 0;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#clearTimer);
    this.#clearTimer = undefined;
    this.#privateKey = undefined;
    await this.#store?.close();
    this.#store = undefined;
  }

  #reportable(height: number): boolean {
    return this.#tipHeight === undefined || Math.abs(height - this.#tipHeight) < REPORTABLE_HEIGHTS;
  }

  /** Whether the header's signature is its generator's (with the generator key the validators module holds now). */
  async #signedByGenerator(header: BlockHeader): Promise<boolean> {
    const { context } = this.#started();
    if (header.generatorAddress.length !== ADDRESS_LENGTH) return false;
    const { generatorKey } = (await context.chain.invoke('validators_getValidator', {
      address: addressToKlayr32(header.generatorAddress),
    })) as { generatorKey: string };
    if (generatorKey === '') return false;
    return verifyBlockHeaderSignature(header, Buffer.from(generatorKey, 'hex'), context.chain.chainID);
  }

  #started(): { store: MisbehaviorStore; context: PluginContext; config: ReportMisbehaviorConfig } {
    if (this.#store === undefined || this.#context === undefined || this.#config === undefined)
      throw new Error('The reportMisbehavior plugin is not started');
    return { store: this.#store, context: this.#context, config: this.#config };
  }
}
