/** The log line formats (`start --log-format`); apart from the logger so that the CLI can list them without loading pino. */
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
