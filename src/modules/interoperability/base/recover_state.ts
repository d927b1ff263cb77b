import type { Command, CommandContext } from '../../../engine/state_machine/module.js';
import { sha256 } from '../../../lib/crypto/hash.js';
import { computeStorePrefix } from '../../../lib/state/keys.js';
import { calculateSMTRoot } from '../../../lib/tree/index.js';
import type { StateRecoveryParams } from './command_schemas.js';
import { stateRecoveryParamsSchema } from './command_schemas.js';
import { interopEvents } from './event_log.js';
import type { InteroperableModules } from './interoperable.js';
import { verifyStateInclusionProof } from './smt.js';
import { terminatedStates } from './state.js';

/** What a recovered entry's leaf holds afterwards (Klayr's RECOVERED_STORE_VALUE). */
const RECOVERED_STORE_VALUE = Buffer.alloc(32);

/** recoverState (both variants): entries of a terminated chain's state, proven in its state root, handed to their module's recover hook, then marked recovered in the root. */
export class RecoverStateCommand implements Command<StateRecoveryParams> {
  readonly name = 'recoverState';
  readonly schema = stateRecoveryParamsSchema;

  constructor(private readonly interoperable: InteroperableModules) {}

  verify(ctx: CommandContext<StateRecoveryParams>): void {
    const { chainID, storeEntries, module } = ctx.params;
    const terminated = terminatedStates.get(ctx, chainID);
    if (terminated === undefined) throw new Error('The terminated state does not exist.');
    if (!terminated.initialized) throw new Error('The terminated state is not initialized.');
    if (!this.interoperable.isRegistered(module)) throw new Error('Module is not registered on the chain.');
    if (this.interoperable.method(module)?.recover === undefined)
      throw new Error("Module is not recoverable, as it doesn't have a recover method.");
    const keys = storeEntries.map((e) => Buffer.concat([e.substorePrefix, e.storeKey]).toString('hex'));
    if (new Set(keys).size !== keys.length) throw new Error('Recoverable store keys are not pairwise distinct.');
  }

  execute(ctx: CommandContext<StateRecoveryParams>): void {
    const { chainID, storeEntries, module, siblingHashes } = ctx.params;
    const storePrefix = computeStorePrefix(module);
    const keyOf = (e: StateRecoveryParams['storeEntries'][number]) =>
      Buffer.concat([storePrefix, e.substorePrefix, sha256(e.storeKey)]);
    const queryKeys = storeEntries.map(keyOf);
    const queries = storeEntries.map((e, i) => ({ key: queryKeys[i], value: sha256(e.storeValue), bitmap: e.bitmap }));
    const terminated = terminatedStates.getOrThrow(ctx, chainID);
    if (!verifyStateInclusionProof(terminated.stateRoot, queryKeys, { siblingHashes, queries })) {
      interopEvents.invalidSMTVerification(ctx);
      throw new Error('State recovery proof of inclusion is not valid.');
    }
    const recover = this.interoperable.method(module)?.recover;
    if (recover === undefined) throw new Error("Module is not recoverable, as it doesn't have a recover method.");
    const updated = storeEntries.map((entry, i) => {
      try {
        recover({
          ...ctx,
          module,
          terminatedChainID: chainID,
          substorePrefix: entry.substorePrefix,
          storeKey: entry.storeKey,
          storeValue: entry.storeValue,
        });
      } catch {
        throw new Error(`Recovery failed for module: ${module}`);
      }
      return { key: queryKeys[i], value: RECOVERED_STORE_VALUE, bitmap: entry.bitmap };
    });
    terminatedStates.set(ctx, chainID, { ...terminated, stateRoot: calculateSMTRoot(siblingHashes, updated) });
  }
}
