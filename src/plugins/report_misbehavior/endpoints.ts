import type { Endpoints } from '../../lib/endpoint/definition.js';

/** reportMisbehavior_authorize's params (Klayr's actionParamsSchema; the password bounded in length). */
export const authorizeParamsSchema = {
  type: 'object',
  required: ['password', 'enable'],
  properties: { password: { type: 'string', maxLength: 1024 }, enable: { type: 'boolean' } },
} as const;

export const INVALID_PASSWORD = 'Password given is not valid.';

export interface ReportingKey {
  /** Decrypts the configured key with `password`; rejects when it cannot. */
  decrypt(password: string): Promise<Buffer>;
  set(privateKey: Buffer | undefined): void;
}

/**
 * The reportMisbehavior namespace (@klayr/report-misbehavior-plugin 0.5.2's endpoint): authorize
 * unlocks the reporting key with the password (enable) or forgets it (disable, which needs the
 * password too); any failure is Klayr's one answer.
 */
export const reportMisbehaviorEndpoints = (key: ReportingKey): Endpoints => ({
  authorize: {
    description: 'Enables (with the password of plugins.reportMisbehavior.encryptedPrivateKey) or disables reporting.',
    params: authorizeParamsSchema,
    handler: async ({ params }) => {
      const enable = params.enable as boolean;
      let privateKey: Buffer;
      try {
        privateKey = await key.decrypt(params.password as string);
      } catch {
        throw new Error(INVALID_PASSWORD);
      }
      key.set(enable ? privateKey : undefined);
      return { result: `Successfully ${enable ? 'enabled' : 'disabled'} the reporting of misbehavior.` };
    },
  },
});
