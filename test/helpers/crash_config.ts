// The config the node crash test and its child share: devnet, with inclusion proofs of two keys and short
// event and proof retention, so that every commit also writes proofs and prunes.
import { addressFromPublicKey } from '../../src/lib/crypto/address.js';
import { computeStorePrefix, computeSubstorePrefix, stateSMTKey } from '../../src/lib/state/keys.js';
import { loadConfig } from '../../src/main/config/index.js';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import { devValidators } from './devnet.js';

const authKey = (address: Buffer): Buffer =>
  Buffer.concat([computeStorePrefix('auth'), computeSubstorePrefix(0), address]);

/** The account that sends a transfer in every block of the crash test. */
export const crashSender = () => devValidators()[1]!;

/** Proved after every block: the sender's auth account (its nonce changes every block) and an address without one. */
export const provedKeys = (): Buffer[] => [
  authKey(addressFromPublicKey(Buffer.from(crashSender().publicKey, 'hex'))),
  authKey(Buffer.alloc(20, 7)),
];

export const KEEP_HEIGHTS = 5;

export const crashConfig = (dataPath: string): ApplicationConfig => {
  const config = loadConfig({ dataPath });
  // Klayr's inclusionProofKeys are state tree keys
  config.system.inclusionProofKeys = provedKeys().map((k) => stateSMTKey(k).toString('hex'));
  config.system.keepEventsForHeights = KEEP_HEIGHTS;
  config.system.keepInclusionProofsForHeights = KEEP_HEIGHTS;
  return config;
};
