import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The embedded devnet files (copied from Klayr Core's config/devnet). */
export const devnetFile = (name: string): string =>
  fileURLToPath(new URL(`../../../src/main/network/devnet/${name}`, import.meta.url));

export interface DevValidatorKey {
  address: string;
  keyPath: string;
  publicKey: string;
  privateKey: string;
  plain: {
    generatorKeyPath: string;
    generatorKey: string;
    generatorPrivateKey: string;
    blsKeyPath: string;
    blsKey: string;
    blsProofOfPossession: string;
    blsPrivateKey: string;
  };
}

export const devValidators = (): DevValidatorKey[] =>
  (JSON.parse(readFileSync(devnetFile('dev-validators.json'), 'utf8')) as { keys: DevValidatorKey[] }).keys;
export const devnetPassphrase = (): string =>
  (JSON.parse(readFileSync(devnetFile('passphrase.json'), 'utf8')) as { passphrase: string }).passphrase;

/** The devnet validator at `index` of dev-validators.json. */
export const devValidator = (index: number): DevValidatorKey => {
  const key = devValidators()[index];
  if (key === undefined) throw new Error(`The devnet has no validator ${index}`);
  return key;
};
