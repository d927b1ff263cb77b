import type { CrossChainMethod, InteroperabilityMethod } from '../../engine/state_machine/cross_chain.js';
import { declaredMetadata } from '../../engine/state_machine/metadata.js';
import type { Module, TransactionContext } from '../../engine/state_machine/module.js';
import { compile } from '../../lib/codec/index.js';
import type { TokenMethod } from '../token/method.js';
import { feeCrossChainMethod } from './cc_method.js';
import type { FeeConfig } from './config.js';
import { FEE_CONFIG_KEYS } from './config.js';
import { FEE_ENDPOINTS, feeEndpoints } from './endpoint.js';
import { FEE_EVENTS, generatorFeeProcessedSchema } from './events.js';
import { CONTEXT_STORE_KEY_AVAILABLE_FEE } from './method.js';

export const MODULE_NAME = 'fee';

const generatorFeeProcessed = compile<{
  senderAddress: Buffer;
  generatorAddress: Buffer;
  burntAmount: bigint;
  generatorAmount: bigint;
}>(generatorFeeProcessedSchema);

/**
 * The fee module: a transaction's fee is locked before its command runs; afterwards the part
 * above the minimum fee (less what the command paid, e.g. account initialization) goes to the
 * block generator, and the rest is burnt (or sent to the fee pool when one is configured).
 * A CCM's fee goes the same way, to its relayer (cc_method.ts).
 */
export class FeeModule implements Module {
  readonly name = MODULE_NAME;
  readonly events = FEE_EVENTS;
  readonly endpointDeclarations = FEE_ENDPOINTS;
  readonly configKeys = FEE_CONFIG_KEYS;

  #crossChainMethod: CrossChainMethod | undefined;

  constructor(
    private readonly config: FeeConfig,
    private readonly token: TokenMethod,
  ) {}

  /** Its hooks on CCMs (the relayer's fee), once it has the interoperability module's method. */
  get crossChainMethod(): CrossChainMethod | undefined {
    return this.#crossChainMethod;
  }

  setInteroperabilityMethod(method: InteroperabilityMethod): void {
    this.#crossChainMethod = feeCrossChainMethod(MODULE_NAME, this.token, method, this.config.feePoolAddress);
  }

  endpoints() {
    return feeEndpoints(this.config);
  }

  metadata() {
    return declaredMetadata(this);
  }

  minFee(height: number, size: number): bigint {
    return height < this.config.maxBlockHeightZeroFeePerByte ? 0n : BigInt(this.config.minFeePerByte) * BigInt(size);
  }

  verifyTransaction(ctx: TransactionContext) {
    const minFee = this.minFee(ctx.header.height, ctx.transactionSize);
    if (ctx.transaction.fee < minFee)
      throw new Error(`Insufficient transaction fee. Minimum required fee is ${minFee}.`);
    if (ctx.transaction.fee > this.token.getAvailableBalance(ctx, ctx.senderAddress, this.config.feeTokenID))
      throw new Error('Insufficient balance.');
    return 1 as const;
  }

  beforeCommandExecute(ctx: TransactionContext): void {
    const minFee = this.minFee(ctx.header.height, ctx.transactionSize);
    const availableFee = ctx.transaction.fee - minFee;
    if (availableFee < 0n) throw new Error(`Insufficient transaction fee. Minimum required fee is ${minFee}.`);
    this.token.lock(ctx, ctx.senderAddress, MODULE_NAME, this.config.feeTokenID, ctx.transaction.fee);
    ctx.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, availableFee);
  }

  afterCommandExecute(ctx: TransactionContext): void {
    const { transaction, senderAddress } = ctx;
    const { generatorAddress } = ctx.header;
    const tokenID = this.config.feeTokenID;
    this.token.unlock(ctx, senderAddress, MODULE_NAME, tokenID, transaction.fee);
    let generatorAmount = (ctx.contextStore.get(CONTEXT_STORE_KEY_AVAILABLE_FEE) as bigint | undefined) ?? 0n;
    if (this.token.userSubstoreExists(ctx, generatorAddress, tokenID))
      this.token.transfer(ctx, senderAddress, generatorAddress, tokenID, generatorAmount);
    else generatorAmount = 0n;
    const pool = this.config.feePoolAddress;
    const burntAmount = transaction.fee - generatorAmount;
    if (pool !== undefined && this.token.userSubstoreExists(ctx, pool, tokenID))
      this.token.transfer(ctx, senderAddress, pool, tokenID, burntAmount);
    else this.token.burn(ctx, senderAddress, tokenID, burntAmount);
    ctx.events.add(
      MODULE_NAME,
      'generatorFeeProcessed',
      generatorFeeProcessed.encode({ senderAddress, generatorAddress, burntAmount, generatorAmount }),
      [senderAddress, generatorAddress],
    );
    ctx.contextStore.delete(CONTEXT_STORE_KEY_AVAILABLE_FEE);
  }
}
