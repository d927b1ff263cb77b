/**
 * An error the state machine must not absorb as a failed command: Klayr stops the node (its
 * `panic`) where a cross-chain update's messages throw while being processed, so no Klayr node
 * processes a block holding such a transaction. Kestrel refuses the block (or, in generation,
 * leaves the transaction out) instead of recording the transaction as failed.
 */
export class StateMachinePanic extends Error {
  constructor(cause: unknown) {
    super(`State machine panic: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StateMachinePanic';
  }
}
