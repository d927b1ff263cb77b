import type { SchemaProperty } from '../../lib/codec/index.js';
import { compileValidator } from '../../lib/codec/index.js';

/**
 * plugins.reportMisbehavior, as @klayr/report-misbehavior-plugin 0.5.2's configSchema (its names and
 * types; nothing required), with bounds Klayr leaves out: a fee below 0 or above 2^53 - 1, or an interval under 1 ms, is refused.
 */
export const reportMisbehaviorConfigSchema = {
  $id: '/klayr/plugins/reportMisbehavior/config',
  type: 'object',
  properties: {
    clearBlockHeadersInterval: {
      type: 'integer',
      minimum: 1,
      description: 'How often headers that can no longer be reported are dropped, in milliseconds.',
    },
    encryptedPrivateKey: { type: 'string', description: 'Encrypted private key of the account sending transaction' },
    defaultPassword: { type: 'string' },
    fee: {
      type: 'integer',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'The fee required to report misbehavior transaction.',
    },
  },
} as const satisfies SchemaProperty;

export interface ReportMisbehaviorConfig {
  clearBlockHeadersInterval: number;
  encryptedPrivateKey: string;
  /** In Klayr's schema and read nowhere by Klayr's plugin; Kestrel reports it unused when set. */
  defaultPassword: string;
  fee: number;
}

/** Klayr's configSchema defaults. */
export const REPORT_MISBEHAVIOR_DEFAULTS: ReportMisbehaviorConfig = {
  clearBlockHeadersInterval: 60000,
  encryptedPrivateKey: '',
  defaultPassword: '',
  fee: 100000000,
};

const validate = compileValidator(reportMisbehaviorConfigSchema);

/** The plugin's settings over Klayr's defaults, refused with every problem's path when they break the schema. */
export const reportMisbehaviorConfig = (input: unknown): ReportMisbehaviorConfig => {
  const issues = validate(input);
  if (issues.length > 0)
    throw new Error(
      `Invalid plugins.reportMisbehavior config:\n${issues.map((i) => `  - plugins.reportMisbehavior${i.dataPath}: ${i.message}`).join('\n')}`,
    );
  return { ...REPORT_MISBEHAVIOR_DEFAULTS, ...(input as Partial<ReportMisbehaviorConfig>) };
};
