/**
 * No BFT parameters apply at the requested height. Klayr throws this with an empty message
 * (RPC clients see it as is), so the message stays empty; the height is kept for logs.
 */
export class BFTParameterNotFoundError extends Error {
  constructor(readonly height?: number) {
    super();
  }
}
