import type { Command, CommandContext } from '../../../../engine/state_machine/module.js';
import type { CompiledSchema } from '../../../../lib/codec/index.js';
import { compile } from '../../../../lib/codec/index.js';
import { sha256 } from '../../../../lib/crypto/hash.js';
import { interoperabilityStoreKey } from '../../../../lib/interop/store_keys.js';
import type { StateRecoveryInitParams } from '../../base/command_schemas.js';
import { stateRecoveryInitParamsSchema } from '../../base/command_schemas.js';
import { CHAIN_STATUS, EMPTY_HASH, LIVENESS_LIMIT } from '../../base/constants.js';
import { interopEvents } from '../../base/event_log.js';
import type { InteropInternalMethod } from '../../base/internal_method.js';
import { verifyStateInclusionProof } from '../../base/smt.js';
import type { ChainAccount } from '../../base/state.js';
import { chainAccounts, getOwnChainAccount, terminatedStates } from '../../base/state.js';
import { getMainchainID } from '../../base/utils.js';
import { chainAccountSchema } from '../../schemas.js';

const chainAccountCodec: CompiledSchema<ChainAccount> = compile<ChainAccount>(chainAccountSchema);

/** initializeStateRecovery: another sidechain's account, proven terminated or not live in the mainchain's state, gives this chain a terminated state account for it. */
export class InitializeStateRecoveryCommand implements Command<StateRecoveryInitParams> {
  readonly name = 'initializeStateRecovery';
  readonly schema = stateRecoveryInitParamsSchema;

  constructor(private readonly internal: InteropInternalMethod) {}

  verify(ctx: CommandContext<StateRecoveryInitParams>): void {
    const { chainID, sidechainAccount } = ctx.params;
    const own = getOwnChainAccount(ctx);
    const mainchainID = getMainchainID(own.chainID);
    if (chainID.equals(mainchainID) || chainID.equals(own.chainID)) throw new Error('Chain ID is not valid.');
    if (terminatedStates.get(ctx, chainID)?.initialized === true) throw new Error('Sidechain is already terminated.');
    const account = chainAccountCodec.decode(sidechainAccount);
    chainAccountCodec.validate(account);
    const mainchain = chainAccounts.getOrThrow(ctx, mainchainID);
    if (account.status === CHAIN_STATUS.REGISTERED) throw new Error('Sidechain has status registered.');
    if (
      account.status === CHAIN_STATUS.ACTIVE &&
      mainchain.lastCertificate.timestamp - account.lastCertificate.timestamp <= LIVENESS_LIMIT
    ) {
      throw new Error('Sidechain is still active and obeys the liveness requirement.');
    }
  }

  execute(ctx: CommandContext<StateRecoveryInitParams>): void {
    const { chainID, siblingHashes, bitmap, sidechainAccount } = ctx.params;
    const terminated = terminatedStates.get(ctx, chainID);
    const queryKey = Buffer.concat([interoperabilityStoreKey('chainAccount', Buffer.alloc(0)), sha256(chainID)]);
    const query = { key: queryKey, value: sha256(sidechainAccount), bitmap };
    let stateRoot: Buffer;
    let what: string;
    if (terminated !== undefined) {
      stateRoot = terminated.mainchainStateRoot;
      what = `given chainID: ${chainID.toString('hex')}.`;
    } else {
      const mainchainID = getMainchainID(ctx.chainID);
      stateRoot = chainAccounts.getOrThrow(ctx, mainchainID).lastCertificate.stateRoot;
      what = `mainchainID: ${mainchainID.toString('hex')}`;
    }
    if (!verifyStateInclusionProof(stateRoot, [queryKey], { siblingHashes, queries: [query] })) {
      interopEvents.invalidSMTVerification(ctx);
      throw new Error(`State recovery initialization proof of inclusion is not valid for ${what}.`);
    }
    const account = chainAccountCodec.decode(sidechainAccount);
    if (terminated !== undefined) {
      terminatedStates.set(ctx, chainID, {
        stateRoot: account.lastCertificate.stateRoot,
        mainchainStateRoot: EMPTY_HASH,
        initialized: true,
      });
      return;
    }
    this.internal.createTerminatedStateAccount(ctx, chainID, account.lastCertificate.stateRoot);
  }
}
