import { isatty } from 'node:tty';
import type { DestinationStream, Logger, LoggerOptions } from 'pino';
import { pino } from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from './config/index.js';
import { withKlayr32Addresses } from './log_addresses.js';
import type { LogFormat } from './log_format.js';

export type { Logger };

/** Logs go to stderr (fd 2): stdout stays for what commands print. */
const LOG_FD = 2;

/** Readable lines on a terminal, JSON lines for files, pipes and log collectors, unless a flag says which. */
export const chooseLogFormat = (flag: LogFormat | undefined, destinationIsTTY: boolean): LogFormat =>
  flag ?? (destinationIsTTY ? 'pretty' : 'json');

export interface CreateLoggerOptions {
  /** Default: chosen by whether stderr is a terminal. */
  format?: LogFormat;
  /** Default: stderr. */
  destination?: DestinationStream;
}

/** Pretty lines: local time, level, message, then the fields on the same line; no pid, host or logger name. */
const prettyStream = (destination: DestinationStream | undefined): DestinationStream =>
  pretty({
    destination: destination ?? LOG_FD,
    sync: destination === undefined,
    colorize: destination === undefined && isatty(LOG_FD),
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
    ignore: 'pid,hostname,name',
    singleLine: true,
  });

/** Logs with levels (Klayr's level `none` silences the logger), pretty or JSON. */
export const createLogger = (level: LogLevel = 'info', name = 'kestrel', options: CreateLoggerOptions = {}): Logger => {
  const format = options.format ?? chooseLogFormat(undefined, isatty(LOG_FD));
  const settings: LoggerOptions = {
    name,
    level: level === 'none' ? 'silent' : level,
    base: { name },
    formatters: { log: withKlayr32Addresses },
  };
  if (format === 'pretty') return pino(settings, prettyStream(options.destination));
  return pino(settings, options.destination ?? pino.destination({ fd: LOG_FD, sync: false }));
};

/**
 * A command's fatal error as one JSON log line on stderr, written synchronously (the process
 * exits right after), whatever the configured level: where logs are JSON, a refused start is
 * a log line like the others, not `Error: ...` text.
 */
export const logFatalError = (error: unknown, name = 'kestrel'): void => {
  const logger = createLogger('fatal', name, {
    format: 'json',
    destination: pino.destination({ fd: LOG_FD, sync: true }),
  });
  logger.fatal({ err: error }, error instanceof Error ? error.message : String(error));
};
