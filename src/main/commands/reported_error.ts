/**
 * An error a command has already written to its log (a JSON line where logs are JSON): the CLI
 * exits with status 1 without printing it a second time as `Error: ...` text.
 */
export class ReportedError extends Error {
  override readonly name = 'ReportedError';
  constructor(readonly reported: unknown) {
    super(reported instanceof Error ? reported.message : String(reported));
  }
}
