import { computeSubstorePrefix, stateSMTKey } from '../state/keys.js';

/**
 * The interoperability module's store layout (klayr-framework 0.12.3): its store prefix (which,
 * unlike other modules', keeps the top bit set) and substore indices. Shared by the module and
 * by the chainConnector plugin, which proves the outbox root and reads channels by these keys.
 */
export const INTEROPERABILITY_MODULE_NAME = 'interoperability';
export const INTEROPERABILITY_STORE_PREFIX = Buffer.from([0x83, 0xed, 0x0d, 0x25]);
export const INTEROPERABILITY_SUBSTORES = {
  outboxRoot: 0,
  chainAccount: 1,
  terminatedState: 3,
  channelData: 5,
  registeredNames: 7,
  chainValidators: 9,
  terminatedOutbox: 11,
  ownChainAccount: 13,
} as const;
export type InteroperabilitySubstore = keyof typeof INTEROPERABILITY_SUBSTORES;

/** A full store key of an interoperability substore entry: store prefix || substore prefix || key. */
export const interoperabilityStoreKey = (substore: InteroperabilitySubstore, key: Uint8Array): Buffer =>
  Buffer.concat([INTEROPERABILITY_STORE_PREFIX, computeSubstorePrefix(INTEROPERABILITY_SUBSTORES[substore]), key]);

/** The store key of the outbox root of the channel with `chainID`. */
export const outboxRootStoreKey = (chainID: Uint8Array): Buffer => interoperabilityStoreKey('outboxRoot', chainID);

/** The key the outbox root of `chainID` has in the state tree (what an outbox-root witness proves; Klayr's plugin builds it as store key || sha256(chainID)). */
export const outboxRootStateTreeKey = (chainID: Uint8Array): Buffer => stateSMTKey(outboxRootStoreKey(chainID));
