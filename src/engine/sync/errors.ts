/**
 * How a synchronization attempt ends when it does not succeed (klayr-framework's
 * synchronizer/errors.js): the synchronizer restarts, aborts, and penalises the peer at fault.
 */
export class SyncError extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The peer's blocks could not all be applied (caught inside the mechanisms, which decide what follows). */
export class BlockProcessingError extends SyncError {
  constructor(cause?: unknown) {
    const reason = cause instanceof Error ? cause.message : 'Block processing failed';
    super(reason, reason);
    this.cause = cause;
  }
}

export class RestartError extends SyncError {
  constructor(reason: string) {
    super(`Restart synchronization mechanism with reason: ${reason}`, reason);
  }
}

export class AbortError extends SyncError {
  constructor(reason: string) {
    super(`Abort synchronization mechanism with reason: ${reason}`, reason);
  }
}

export class ApplyPenaltyAndRestartError extends SyncError {
  constructor(
    readonly peerId: string,
    reason: string,
  ) {
    super(`Apply penalty and restart synchronization mechanism with reason: ${reason}`, reason);
  }
}

export class ApplyPenaltyAndAbortError extends SyncError {
  constructor(
    readonly peerId: string,
    reason: string,
  ) {
    super(`Apply penalty and abort synchronization mechanism with reason: ${reason}`, reason);
  }
}
