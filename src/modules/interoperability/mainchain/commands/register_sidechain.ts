import type { CCMessage } from '../../../../engine/state_machine/cross_chain.js';
import type { Command, CommandContext } from '../../../../engine/state_machine/module.js';
import { computeValidatorsHash } from '../../../../lib/chain/validators_hash.js';
import { compile } from '../../../../lib/codec/index.js';
import type { RegistrationCCMParams } from '../../../../lib/interop/ccm_params.js';
import { registrationCCMParamsSchema } from '../../../../lib/interop/ccm_params.js';
import { payFee } from '../../../fee/method.js';
import type { SidechainRegParams } from '../../base/command_schemas.js';
import { sidechainRegParamsSchema } from '../../base/command_schemas.js';
import {
  CCM_STATUS,
  CHAIN_REGISTRATION_FEE,
  CHAIN_STATUS,
  CROSS_CHAIN_COMMAND_REGISTRATION,
  EMPTY_HASH,
  MAX_UINT64,
  MIN_RETURN_FEE_PER_BYTE,
} from '../../base/constants.js';
import { interopEvents } from '../../base/event_log.js';
import type { InteropInternalMethod } from '../../base/internal_method.js';
import {
  chainAccounts,
  chainValidators,
  channels,
  getOwnChainAccount,
  outboxRoots,
  registeredNames,
  setOwnChainAccount,
} from '../../base/state.js';
import { ccmID, encodeCCM, getTokenIDKLY, invalidNameError, isValidName } from '../../base/utils.js';
import { MODULE_NAME } from '../../stores.js';

const registrationCodec = compile<RegistrationCCMParams>(registrationCCMParamsSchema);
const emptyBox = () => ({ root: EMPTY_HASH, appendPath: [], size: 0 });

/** registerSidechain: a sidechain's account, channel and validators on the mainchain, and the registration CCM to it. */
export class RegisterSidechainCommand implements Command<SidechainRegParams> {
  readonly name = 'registerSidechain';
  readonly schema = sidechainRegParamsSchema;

  constructor(private readonly internal: InteropInternalMethod) {}

  verify(ctx: CommandContext<SidechainRegParams>): void {
    const { transaction, params } = ctx;
    const { sidechainValidators, sidechainCertificateThreshold, chainID, name } = params;
    if (!isValidName(name)) throw invalidNameError();
    if (registeredNames.has(ctx, Buffer.from(name, 'ascii'))) throw new Error('Name already registered.');
    if (chainAccounts.has(ctx, chainID)) throw new Error('Chain ID already registered.');
    if (chainID[0] !== ctx.chainID[0]) throw new Error('Chain ID does not match the mainchain network.');
    if (chainID.equals(ctx.chainID)) throw new Error('Chain ID cannot be the mainchain chain ID.');
    let total = 0n;
    for (let i = 0; i < sidechainValidators.length; i++) {
      const current = sidechainValidators[i];
      const next = sidechainValidators[i + 1];
      if (next !== undefined && Buffer.compare(current.blsKey, next.blsKey) > -1)
        throw new Error('Validators blsKeys must be unique and lexicographically ordered');
      if (current.bftWeight <= 0n) throw new Error('Validator bft weight must be greater than 0');
      total += current.bftWeight;
    }
    if (total > MAX_UINT64) throw new Error(`Validator bft weight must not exceed ${MAX_UINT64}`);
    if (sidechainCertificateThreshold < total / 3n + 1n)
      throw new Error('Certificate threshold below minimum bft weight ');
    if (sidechainCertificateThreshold > total) throw new Error('Certificate threshold above maximum bft weight');
    if (transaction.fee < CHAIN_REGISTRATION_FEE) throw new Error('Insufficient transaction fee.');
  }

  execute(ctx: CommandContext<SidechainRegParams>): void {
    const { sidechainCertificateThreshold, sidechainValidators, chainID, name } = ctx.params;
    const account = {
      name,
      lastCertificate: {
        height: 0,
        timestamp: 0,
        stateRoot: EMPTY_HASH,
        validatorsHash: computeValidatorsHash(sidechainValidators, sidechainCertificateThreshold),
      },
      status: CHAIN_STATUS.REGISTERED,
    };
    chainAccounts.set(ctx, chainID, account);
    const tokenID = getTokenIDKLY(ctx.chainID);
    channels.set(ctx, chainID, {
      inbox: emptyBox(),
      outbox: emptyBox(),
      partnerChainOutboxRoot: EMPTY_HASH,
      messageFeeTokenID: tokenID,
      minReturnFeePerByte: MIN_RETURN_FEE_PER_BYTE,
    });
    chainValidators.set(ctx, chainID, {
      activeValidators: sidechainValidators,
      certificateThreshold: sidechainCertificateThreshold,
    });
    outboxRoots.set(ctx, chainID, { root: EMPTY_HASH });
    registeredNames.set(ctx, Buffer.from(name, 'ascii'), { chainID });
    payFee(ctx, CHAIN_REGISTRATION_FEE);
    this.internal.token.initializeEscrowAccount(ctx, chainID, tokenID);
    interopEvents.chainAccountUpdated(ctx, chainID, account);
    const params = registrationCodec.encode({
      name,
      chainID,
      messageFeeTokenID: tokenID,
      minReturnFeePerByte: MIN_RETURN_FEE_PER_BYTE,
    });
    const own = getOwnChainAccount(ctx);
    const ccm: CCMessage = {
      nonce: own.nonce,
      module: MODULE_NAME,
      crossChainCommand: CROSS_CHAIN_COMMAND_REGISTRATION,
      sendingChainID: own.chainID,
      receivingChainID: chainID,
      fee: 0n,
      status: CCM_STATUS.OK,
      params,
    };
    this.internal.addToOutbox(ctx, chainID, ccm);
    setOwnChainAccount(ctx, { ...own, nonce: own.nonce + 1n });
    interopEvents.ccmSendSuccess(ctx, own.chainID, chainID, ccmID(encodeCCM(ccm)), ccm);
  }
}
