/** Raised for every encoding or decoding failure: malformed bytes or a value that does not fit its schema. */
export class CodecError extends Error {
  override readonly name = 'CodecError';
  constructor(
    message: string,
    readonly path = '',
  ) {
    super(path === '' ? message : `${message} (at ${path})`);
  }
}

export interface ValidationIssue {
  /** Legacy Klayr data path, e.g. `.header.height` (empty for the root). */
  readonly dataPath: string;
  readonly keyword: string;
  readonly message: string;
}

/** Raised when an object does not satisfy its JSON schema; lists every problem found. */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  constructor(readonly issues: readonly ValidationIssue[]) {
    super(
      `Validation found ${issues.length} error[s]:\n` +
        issues.map((i) => `Property '${i.dataPath}' ${i.message}`).join('\n'),
    );
  }
}
