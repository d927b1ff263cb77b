import type { GenesisContext } from '../../engine/state_machine/module.js';
import type { CompiledSchema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { AuthAccount, GenesisAuthStore } from './schemas.js';
import { authAccountSchema, genesisAuthStoreSchema, MAX_NUMBER_OF_SIGNATURES } from './schemas.js';
import { authAccountStore, MODULE_NAME } from './stores.js';

const ADDRESS_LENGTH = 20;
const genesisCodec: CompiledSchema<GenesisAuthStore> = compile<GenesisAuthStore>(genesisAuthStoreSchema);
const accountCodec: CompiledSchema<AuthAccount> = compile<AuthAccount>(authAccountSchema);

// latin1 strings are the bytes one to one, and cheaper to build than hex (76,000 genesis accounts on a live network)
const bytesKey = (b: Buffer): string => b.toString('latin1');
const ordered = (keys: readonly Buffer[]): boolean =>
  keys.every((k, i) => i === 0 || Buffer.compare(keys[i - 1], k) <= 0);
const unique = (keys: readonly Buffer[]): boolean =>
  keys.length < 2 || new Set(keys.map(bytesKey)).size === keys.length;

/** Klayr's multisignature rules for a genesis auth account, checked in its order (so the first broken rule is the one named). */
const checkAccount = (account: AuthAccount, maxNumberOfSignatures: number): void => {
  accountCodec.validate(account);
  const { mandatoryKeys, optionalKeys, numberOfSignatures } = account;
  if (!ordered(mandatoryKeys))
    throw new Error('Invalid store value for auth module. MandatoryKeys are not sorted lexicographically.');
  if (!unique(mandatoryKeys)) throw new Error('Invalid store value for auth module. MandatoryKeys are not unique.');
  if (!ordered(optionalKeys))
    throw new Error('Invalid store value for auth module. OptionalKeys are not sorted lexicographically.');
  if (!unique(optionalKeys)) throw new Error('Invalid store value for auth module. OptionalKeys are not unique.');
  const keyCount = mandatoryKeys.length + optionalKeys.length;
  if (keyCount > maxNumberOfSignatures)
    throw new Error(`The count of Mandatory and Optional keys should be maximum ${maxNumberOfSignatures}.`);
  const optional = new Set(optionalKeys.map(bytesKey));
  if (mandatoryKeys.some((k) => optional.has(bytesKey(k)))) {
    throw new Error(
      'Invalid combination of Mandatory and Optional keys. Repeated keys across Mandatory and Optional were found.',
    );
  }
  if (keyCount < numberOfSignatures)
    throw new Error('The numberOfSignatures is bigger than the count of Mandatory and Optional keys.');
  if (mandatoryKeys.length > numberOfSignatures)
    throw new Error('The numberOfSignatures is smaller than the count of Mandatory keys.');
};

/**
 * The auth module's genesis asset: each listed account (nonce and multisignature keys) is stored
 * as given, after Klayr's checks. Keys are not re-sorted: unsorted keys are refused.
 */
export const initAuthGenesis = (ctx: GenesisContext, maxNumberOfSignatures = MAX_NUMBER_OF_SIGNATURES): void => {
  const bytes = ctx.asset(MODULE_NAME);
  if (bytes === undefined) return;
  const { authDataSubstore } = genesisCodec.decode(bytes);
  const accounts = authAccountStore(ctx);
  for (const { address, authAccount } of authDataSubstore) {
    if (address.length !== ADDRESS_LENGTH) throw new Error('Invalid store key length for auth module.');
    checkAccount(authAccount, maxNumberOfSignatures);
    accounts.setWithSchema(address, authAccount, authAccountSchema);
  }
  if (!unique(authDataSubstore.map((a) => a.address))) throw new Error('Duplicate address in the for auth module.');
};
