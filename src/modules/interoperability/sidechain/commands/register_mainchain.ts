import type { CCMessage } from '../../../../engine/state_machine/cross_chain.js';
import type { Command, CommandContext, StoreAccess } from '../../../../engine/state_machine/module.js';
import { computeValidatorsHash } from '../../../../lib/chain/validators_hash.js';
import { compile } from '../../../../lib/codec/index.js';
import type { AggregateCheck } from '../../../../lib/interop/aggregate_verdicts.js';
import { verifyAggregateCheck } from '../../../../lib/interop/aggregate_verdicts.js';
import type { RegistrationCCMParams } from '../../../../lib/interop/ccm_params.js';
import { registrationCCMParamsSchema } from '../../../../lib/interop/ccm_params.js';
import { getValidatorsParams } from '../../../validators/method.js';
import type { MainchainRegParams } from '../../base/command_schemas.js';
import { mainchainRegParamsSchema } from '../../base/command_schemas.js';
import {
  CCM_STATUS,
  CHAIN_NAME_MAINCHAIN,
  CHAIN_STATUS,
  CROSS_CHAIN_COMMAND_REGISTRATION,
  EMPTY_HASH,
  MAX_UINT64,
  MIN_RETURN_FEE_PER_BYTE,
} from '../../base/constants.js';
import { interopEvents } from '../../base/event_log.js';
import type { InteropInternalMethod } from '../../base/internal_method.js';
import { registrationSignatureCheck } from '../../base/signatures.js';
import { chainAccounts, chainValidators, channels, outboxRoots, setOwnChainAccount } from '../../base/state.js';
import { ccmID, encodeCCM, getMainchainID, getTokenIDKLY, invalidNameError, isValidName } from '../../base/utils.js';
import { MODULE_NAME } from '../../stores.js';

const registrationCodec = compile<RegistrationCCMParams>(registrationCCMParamsSchema);
const emptyBox = () => ({ root: EMPTY_HASH, appendPath: [], size: 0 });

/** The aggregate signature check registerMainchain makes: the chain's current validators over the registration message. */
export const registerMainchainSignatureCheck = (ctx: StoreAccess, params: MainchainRegParams): AggregateCheck => {
  const { validators, certificateThreshold } = getValidatorsParams(ctx);
  return registrationSignatureCheck(validators, certificateThreshold, params);
};

/** registerMainchain: the mainchain's account, channel and validators on a sidechain, signed by the sidechain's validators, and the registration CCM. */
export class RegisterMainchainCommand implements Command<MainchainRegParams> {
  readonly name = 'registerMainchain';
  readonly schema = mainchainRegParamsSchema;

  constructor(private readonly internal: InteropInternalMethod) {}

  verify(ctx: CommandContext<MainchainRegParams>): void {
    const { ownName, mainchainValidators, mainchainCertificateThreshold, ownChainID } = ctx.params;
    if (chainAccounts.has(ctx, getMainchainID(ctx.chainID))) throw new Error('Mainchain has already been registered.');
    if (!ownChainID.equals(ctx.chainID)) throw new Error('Invalid ownChainID property.');
    if (!isValidName(ownName)) throw invalidNameError('ownName');
    let total = 0n;
    for (let i = 0; i < mainchainValidators.length; i++) {
      const current = mainchainValidators[i];
      const next = mainchainValidators[i + 1];
      if (next !== undefined && Buffer.compare(current.blsKey, next.blsKey) > -1)
        throw new Error('Validators blsKeys must be unique and lexicographically ordered.');
      if (current.bftWeight === 0n) throw new Error('Validator bft weight must be positive integer.');
      total += current.bftWeight;
      if (total > MAX_UINT64) throw new Error('Total BFT weight exceeds maximum value.');
    }
    if (mainchainCertificateThreshold < total / 3n + 1n) throw new Error('Certificate threshold is too small.');
    if (mainchainCertificateThreshold > total) throw new Error('Certificate threshold is too large.');
  }

  execute(ctx: CommandContext<MainchainRegParams>): void {
    const { ownChainID, ownName, mainchainValidators, mainchainCertificateThreshold } = ctx.params;
    if (!verifyAggregateCheck(registerMainchainSignatureCheck(ctx, ctx.params))) {
      interopEvents.invalidRegistrationSignature(ctx, ownChainID);
      throw new Error('Invalid signature property.');
    }
    const tokenID = getTokenIDKLY(ctx.chainID);
    const account = {
      name: CHAIN_NAME_MAINCHAIN,
      lastCertificate: {
        height: 0,
        timestamp: 0,
        stateRoot: EMPTY_HASH,
        validatorsHash: computeValidatorsHash(mainchainValidators, mainchainCertificateThreshold),
      },
      status: CHAIN_STATUS.REGISTERED,
    };
    const mainchainID = getMainchainID(ctx.chainID);
    chainAccounts.set(ctx, mainchainID, account);
    channels.set(ctx, mainchainID, {
      inbox: emptyBox(),
      outbox: emptyBox(),
      partnerChainOutboxRoot: EMPTY_HASH,
      messageFeeTokenID: tokenID,
      minReturnFeePerByte: MIN_RETURN_FEE_PER_BYTE,
    });
    chainValidators.set(ctx, mainchainID, {
      activeValidators: mainchainValidators,
      certificateThreshold: mainchainCertificateThreshold,
    });
    outboxRoots.set(ctx, mainchainID, { root: EMPTY_HASH });
    interopEvents.chainAccountUpdated(ctx, mainchainID, account);
    const params = registrationCodec.encode({
      name: CHAIN_NAME_MAINCHAIN,
      chainID: mainchainID,
      messageFeeTokenID: tokenID,
      minReturnFeePerByte: MIN_RETURN_FEE_PER_BYTE,
    });
    const ccm: CCMessage = {
      nonce: 0n,
      module: MODULE_NAME,
      crossChainCommand: CROSS_CHAIN_COMMAND_REGISTRATION,
      sendingChainID: ownChainID,
      receivingChainID: mainchainID,
      fee: 0n,
      status: CCM_STATUS.OK,
      params,
    };
    this.internal.addToOutbox(ctx, mainchainID, ccm);
    setOwnChainAccount(ctx, { name: ownName, chainID: ownChainID, nonce: 1n });
    interopEvents.ccmSendSuccess(ctx, ownChainID, mainchainID, ccmID(encodeCCM(ccm)), ccm);
  }
}
