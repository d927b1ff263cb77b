import type { Logger } from 'pino';
import type { StateDB } from '../engine/state/state_db.js';
import type { StateTreeBuilder } from '../workers/state_tree_builder.js';
import { startStateTreeThread } from '../workers/state_tree_builder.js';

/**
 * Builds the committed state's tree in a thread of its own when it is pending (a first start on a large
 * pinned genesis block, or one whose build a crash cut short), with `thread` when one was started for it
 * (closed otherwise). Its root must be the committed one (the header's stateRoot): else the promise rejects
 * with StateTreeMismatchError and nothing is written. A rejection before anyone awaits it is not unhandled.
 */
export const buildPendingTree = (
  state: StateDB,
  thread: StateTreeBuilder | undefined,
  dataPath: string,
  logger: Logger,
): Promise<void> => {
  const pending = state.pendingTree;
  if (pending === undefined) {
    void thread?.close();
    return Promise.resolve();
  }
  const started = performance.now();
  logger.info({ height: pending.height }, 'Building the state tree of the committed state in a thread');
  const built = (thread ?? startStateTreeThread()).build(dataPath).then((root) => {
    logger.info(
      {
        height: pending.height,
        stateRoot: (root ?? pending.root).toString('hex'),
        ms: Math.round(performance.now() - started),
      },
      "State tree built: its root is the block header's stateRoot",
    );
  });
  built.catch(() => undefined);
  return built;
};
