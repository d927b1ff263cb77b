import { declaredMetadata } from '../../engine/state_machine/metadata.js';
import type { BlockContext, EndpointServices, GenesisContext, Module } from '../../engine/state_machine/module.js';
import { compile } from '../../lib/codec/index.js';
import { required } from '../../lib/required.js';
import type { PoSConfig } from '../pos/config.js';
import { isEndOfRound, updateSharedRewards } from '../pos/method.js';
import { isSeedRevealValid } from '../random/method.js';
import type { TokenMethod } from '../token/method.js';
import { getGeneratorsBetweenTimestamps, getValidatorsParams } from '../validators/method.js';
import type { RewardConfig } from './config.js';
import { REWARD_CONFIG_KEYS } from './config.js';
import { DYNAMIC_REWARD_ENDPOINTS, dynamicRewardEndpoints } from './endpoint.js';
import { rewardMintedSchema } from './events.js';
import { defaultRewardAtHeight, minimalRewardActiveValidators, validatorBlockReward } from './method.js';
import { DYNAMIC_REWARD_STORES, endOfRoundTimestampSchema, endOfRoundTimestampStore, MODULE_NAME } from './stores.js';

/** Why a block reward was reduced (the rewardMinted event's reduction). */
export const REWARD_REDUCTION = { NONE: 0, SEED_REVEAL: 1, MAX_PREVOTES: 2, NO_ACCOUNT: 3 } as const;

const CONTEXT_KEY_REWARD = 'CONTEXT_STORE_KEY_DYNAMIC_BLOCK_REWARD';
const CONTEXT_KEY_REDUCTION = 'CONTEXT_STORE_KEY_DYNAMIC_BLOCK_REDUCTION';

const rewardMinted = compile<{ amount: bigint; reduction: number }>(rewardMintedSchema);

export interface DynamicRewardDeps {
  config: RewardConfig;
  pos: PoSConfig;
  token: TokenMethod;
  blockTime: number;
}

/**
 * The dynamicReward module: each block mints its generator a reward that depends on the
 * validator's BFT weight (LIP 0071), reduced to 0 for an invalid seed reveal and divided by
 * rewardReductionFactorBFT when the header does not imply maximal prevotes.
 */
export class DynamicRewardModule implements Module {
  readonly name = MODULE_NAME;
  readonly stores = DYNAMIC_REWARD_STORES;
  readonly events = [{ name: 'rewardMinted', data: rewardMintedSchema }];
  readonly endpointDeclarations = DYNAMIC_REWARD_ENDPOINTS;
  readonly configKeys = REWARD_CONFIG_KEYS;

  constructor(private readonly deps?: DynamicRewardDeps) {}

  endpoints({ state, lastHeader }: EndpointServices) {
    const { config, pos, blockTime } = this.#deps();
    return dynamicRewardEndpoints(state, config, {
      blockTime,
      roundLength: pos.roundLength,
      height: () => lastHeader().height,
    });
  }

  metadata() {
    return declaredMetadata(this);
  }

  initGenesisState(ctx: GenesisContext): void {
    endOfRoundTimestampStore(ctx).setWithSchema(
      Buffer.alloc(0),
      { timestamp: ctx.header.timestamp },
      endOfRoundTimestampSchema,
    );
  }

  #deps(): DynamicRewardDeps {
    if (this.deps === undefined) throw new Error('The dynamicReward module was built for genesis only.');
    return this.deps;
  }

  #defaultBlockReward(ctx: BlockContext): bigint {
    const { config, pos, blockTime } = this.#deps();
    const { header } = ctx;
    const endOfRound = required(
      endOfRoundTimestampStore(ctx).getWithSchema<{ timestamp: number }>(Buffer.alloc(0), endOfRoundTimestampSchema),
      'The end-of-round timestamp',
    ).timestamp;
    const defaultReward = defaultRewardAtHeight(config, header.height);
    const minimal = minimalRewardActiveValidators(config, defaultReward);
    if (getGeneratorsBetweenTimestamps(ctx, blockTime, endOfRound, header.timestamp).size >= pos.roundLength)
      return minimal;
    const reward = validatorBlockReward(
      getValidatorsParams(ctx).validators,
      header.generatorAddress,
      config,
      defaultReward,
    );
    if (reward === undefined) throw new Error('Invalid generator. Validator params does not include the validator.');
    return reward;
  }

  beforeTransactionsExecute(ctx: BlockContext): void {
    const defaultReward = this.#defaultBlockReward(ctx);
    let reward = defaultReward;
    let reduction: number = REWARD_REDUCTION.NONE;
    if (!isSeedRevealValid(ctx, ctx.header.generatorAddress, ctx.asset('random'))) {
      reward = 0n;
      reduction = REWARD_REDUCTION.SEED_REVEAL;
    } else if (!ctx.header.impliesMaxPrevotes) {
      reward = defaultReward / this.#deps().config.rewardReductionFactorBFT;
      reduction = REWARD_REDUCTION.MAX_PREVOTES;
    }
    ctx.contextStore.set(CONTEXT_KEY_REWARD, reward);
    ctx.contextStore.set(CONTEXT_KEY_REDUCTION, reduction);
  }

  afterTransactionsExecute(ctx: BlockContext): void {
    const { config, pos, token } = this.#deps();
    const { generatorAddress, height, timestamp } = ctx.header;
    let reward = (ctx.contextStore.get(CONTEXT_KEY_REWARD) as bigint | undefined) ?? 0n;
    let reduction = (ctx.contextStore.get(CONTEXT_KEY_REDUCTION) as number | undefined) ?? 0;
    if (reward !== 0n) {
      if (token.userSubstoreExists(ctx, generatorAddress, config.tokenID)) {
        token.mint(ctx, generatorAddress, config.tokenID, reward);
        updateSharedRewards(ctx, token, generatorAddress, config.tokenID, reward);
      } else {
        reward = 0n;
        reduction = REWARD_REDUCTION.NO_ACCOUNT;
      }
    }
    if (isEndOfRound(ctx, pos, height))
      endOfRoundTimestampStore(ctx).setWithSchema(Buffer.alloc(0), { timestamp }, endOfRoundTimestampSchema);
    ctx.events.add(MODULE_NAME, 'rewardMinted', rewardMinted.encode({ amount: reward, reduction }), [generatorAddress]);
  }
}
