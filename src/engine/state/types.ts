export interface Entry {
  key: Buffer;
  value: Buffer;
}

export interface IterateOptions {
  gte: Buffer;
  lte: Buffer;
  limit?: number;
  reverse?: boolean;
}

/** What modules see of state: raw bytes under full keys (store prefix || substore prefix || key). */
export interface StateReadWriter {
  get(key: Buffer): Buffer | undefined;
  has(key: Buffer): boolean;
  set(key: Buffer, value: Buffer): void;
  /**
   * set, keeping `value` itself instead of a copy: for a buffer nothing else holds or changes (one just
   * encoded). A genesis block's 150,000 values copied again cost about a seventh of its processing.
   */
  setOwned?(key: Buffer, value: Buffer): void;
  del(key: Buffer): void;
  iterate(options: IterateOptions): Entry[];
  snapshot(): number;
  restoreSnapshot(id: number): void;
}
