import type { StoreAccess } from '../../../engine/state_machine/module.js';
import type { Schema } from '../../../lib/codec/index.js';
import {
  chainAccountSchema,
  chainValidatorsSchema,
  channelDataSchema,
  ownChainAccountSchema,
  registeredNamesSchema,
  terminatedOutboxSchema,
  terminatedStateSchema,
} from '../schemas.js';
import type { INTEROP_STORES } from '../stores.js';
import { interopStore, outboxRootSchema } from '../stores.js';
import { EMPTY_BYTES } from './constants.js';
import type { ActiveValidator } from './utils.js';

export interface LastCertificate {
  height: number;
  timestamp: number;
  stateRoot: Buffer;
  validatorsHash: Buffer;
}
export interface ChainAccount {
  name: string;
  lastCertificate: LastCertificate;
  status: number;
}
export interface MerkleBox {
  appendPath: Buffer[];
  size: number;
  root: Buffer;
}
export interface ChannelData {
  inbox: MerkleBox;
  outbox: MerkleBox;
  partnerChainOutboxRoot: Buffer;
  messageFeeTokenID: Buffer;
  minReturnFeePerByte: bigint;
}
export interface ChainValidators {
  activeValidators: ActiveValidator[];
  certificateThreshold: bigint;
}
export interface OwnChainAccount {
  name: string;
  chainID: Buffer;
  nonce: bigint;
}
export interface TerminatedStateAccount {
  stateRoot: Buffer;
  mainchainStateRoot: Buffer;
  initialized: boolean;
}
export interface TerminatedOutboxAccount {
  outboxRoot: Buffer;
  outboxSize: number;
  partnerChainInboxSize: number;
}

/** Typed access to one interoperability substore keyed by chain ID (or name, or the empty key). */
const typed = <T>(name: keyof typeof INTEROP_STORES, schema: Schema, what: string) => ({
  get: (ctx: StoreAccess, key: Buffer): T | undefined => interopStore(ctx, name).getWithSchema<T>(key, schema),
  /** Klayr's BaseStore.get: a missing entry is a NotFoundError. */
  getOrThrow: (ctx: StoreAccess, key: Buffer): T => {
    const value = interopStore(ctx, name).getWithSchema<T>(key, schema);
    if (value === undefined) throw new Error(`${what} for key ${key.toString('hex')} does not exist.`);
    return value;
  },
  has: (ctx: StoreAccess, key: Buffer): boolean => interopStore(ctx, name).has(key),
  set: (ctx: StoreAccess, key: Buffer, value: T): void => interopStore(ctx, name).setWithSchema(key, value, schema),
  del: (ctx: StoreAccess, key: Buffer): void => interopStore(ctx, name).del(key),
});

export const chainAccounts = typed<ChainAccount>('chainAccount', chainAccountSchema, 'Chain account');
export const channels = typed<ChannelData>('channelData', channelDataSchema, 'Channel');
export const chainValidators = typed<ChainValidators>('chainValidators', chainValidatorsSchema, 'Chain validators');
export const outboxRoots = typed<{ root: Buffer }>('outboxRoot', outboxRootSchema, 'Outbox root');
export const terminatedStates = typed<TerminatedStateAccount>(
  'terminatedState',
  terminatedStateSchema,
  'Terminated state account',
);
export const terminatedOutboxes = typed<TerminatedOutboxAccount>(
  'terminatedOutbox',
  terminatedOutboxSchema,
  'Terminated outbox account',
);
export const registeredNames = typed<{ chainID: Buffer }>('registeredNames', registeredNamesSchema, 'Registered name');
const ownAccounts = typed<OwnChainAccount>('ownChainAccount', ownChainAccountSchema, 'Own chain account');

export const getOwnChainAccount = (ctx: StoreAccess): OwnChainAccount => ownAccounts.getOrThrow(ctx, EMPTY_BYTES);
export const hasOwnChainAccount = (ctx: StoreAccess): boolean => ownAccounts.has(ctx, EMPTY_BYTES);
export const setOwnChainAccount = (ctx: StoreAccess, account: OwnChainAccount): void =>
  ownAccounts.set(ctx, EMPTY_BYTES, account);
