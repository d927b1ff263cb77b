/**
 * Lets the event loop run its I/O callbacks (a peer's answer, RPC requests), not only the microtasks an
 * await runs: one setImmediate turn. The synchronizer takes one after each block and between a block's stages.
 */
export const yieldToIO = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
