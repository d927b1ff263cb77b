import { pino } from 'pino';
import type { Logger } from 'pino';
import type { LogLevel } from './config/index.js';

export type { Logger };

/** JSON logs with levels; Klayr's level `none` silences the logger. */
export const createLogger = (level: LogLevel = 'info', name = 'kestrel'): Logger =>
  pino({ name, level: level === 'none' ? 'silent' : level, base: { name } }, pino.destination({ fd: 2, sync: false }));
