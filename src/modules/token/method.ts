export type { TokenConfig } from './config.js';

import type { InteroperabilityMethod } from '../../engine/state_machine/cross_chain.js';
import type { MethodContext, StoreAccess } from '../../engine/state_machine/module.js';
import { addressToKlayr32 } from '../../lib/crypto/address.js';
import { payFee } from '../fee/method.js';
import type { TokenConfig } from './config.js';
import { addEscrowAmount, getEscrowAmount, hasEscrowAccount, setEscrowAmount } from './escrow.js';
import { logTokenEvent, TOKEN_EVENT_RESULT } from './events.js';
import { normalizeUser } from './genesis.js';
import type { UserAccount } from './schemas.js';
import { supplyStoreSchema, userStoreSchema } from './schemas.js';
import { CHAIN_ID_LENGTH, TOKEN_ID_LENGTH, tokenStore, userKey } from './stores.js';
import { isTokenSupported } from './supported_tokens.js';

type Context = Pick<MethodContext, 'store' | 'events' | 'contextStore'>;

const MAX_UINT64_EXCLUSIVE = 2n ** 64n;

export const getUser = (ctx: StoreAccess, address: Buffer, tokenID: Buffer): UserAccount | undefined =>
  tokenStore(ctx, 'user').getWithSchema<UserAccount>(userKey(address, tokenID), userStoreSchema);
/** Klayr's UserStore.save: zero locks dropped, locks sorted by module. */
export const saveUser = (ctx: StoreAccess, address: Buffer, tokenID: Buffer, user: UserAccount): void =>
  tokenStore(ctx, 'user').setWithSchema(userKey(address, tokenID), normalizeUser(user), userStoreSchema);

/** What Klayr's stores throw (lisk-db's NotFoundError) when a method needs an account that is missing. */
export const missingAccount = (address: Buffer, tokenID: Buffer): Error =>
  new Error(`Token account of ${addressToKlayr32(address)} for ${tokenID.toString('hex')} does not exist.`);
const insufficient = (address: Buffer, amount: bigint): Error =>
  new Error(`Address ${addressToKlayr32(address)} does not have sufficient balance for amount ${amount.toString()}`);
/** Klayr's InsufficientBalanceError message. */
export const insufficientBalanceError = (address: Buffer, available: bigint, amount: bigint, tokenID?: Buffer): Error =>
  new Error(
    `${addressToKlayr32(address)} balance ${available.toString()}${tokenID === undefined ? '' : ` for ${tokenID.toString('hex')}`} is not sufficient for ${amount.toString()}.`,
  );

/** The token module's methods (Klayr's TokenMethod and InternalMethod) other modules call. */
export class TokenMethod {
  #interoperability: InteroperabilityMethod | undefined;

  constructor(readonly config: TokenConfig) {}

  /** The interoperability module's method, which message fees and cross-chain transfers go through (set when the modules are assembled). */
  setInteroperabilityMethod(method: InteroperabilityMethod): void {
    this.#interoperability = method;
  }

  get interoperability(): InteroperabilityMethod {
    if (this.#interoperability === undefined) throw new Error('The token module has no interoperability method.');
    return this.#interoperability;
  }

  isNativeToken(tokenID: Buffer): boolean {
    return tokenID.subarray(0, CHAIN_ID_LENGTH).equals(this.config.ownChainID);
  }

  /** The mainchain's KLY token: the network byte followed by zeros. */
  getTokenIDKLY(): Buffer {
    return Buffer.concat([this.config.ownChainID.subarray(0, 1), Buffer.alloc(TOKEN_ID_LENGTH - 1)]);
  }

  isTokenSupported(ctx: StoreAccess, tokenID: Buffer): boolean {
    return isTokenSupported(ctx, this.config.ownChainID, tokenID);
  }

  escrowSubstoreExists(ctx: StoreAccess, escrowChainID: Buffer, tokenID: Buffer): boolean {
    return hasEscrowAccount(ctx, escrowChainID, tokenID);
  }

  getEscrowedAmount(ctx: StoreAccess, escrowChainID: Buffer, tokenID: Buffer): bigint {
    if (!this.isNativeToken(tokenID)) throw new Error('Only native token can have escrow amount.');
    if (this.config.ownChainID.equals(escrowChainID)) throw new Error('Escrow is not defined for own chain.');
    return getEscrowAmount(ctx, escrowChainID, tokenID) ?? 0n;
  }

  /** Creates the escrow account of a native token for another chain, paying its initialization fee out of the fee at hand. */
  initializeEscrowAccount(ctx: Context, escrowChainID: Buffer, tokenID: Buffer): void {
    if (!this.isNativeToken(tokenID)) throw new Error(`TokenID ${tokenID.toString('hex')} is not native token.`);
    if (this.config.ownChainID.equals(escrowChainID))
      throw new Error(`Can not initialize escrow account for own chain, ${escrowChainID.toString('hex')}`);
    if (hasEscrowAccount(ctx, escrowChainID, tokenID)) return;
    this.createEscrowAccount(ctx, escrowChainID, tokenID);
  }

  /** Klayr's InternalMethod.initializeEscrowAccount: no checks. */
  createEscrowAccount(ctx: Context, escrowChainID: Buffer, tokenID: Buffer): void {
    const initializationFee = this.config.escrowAccountInitializationFee;
    payFee(ctx, initializationFee);
    setEscrowAmount(ctx, escrowChainID, tokenID, 0n);
    logTokenEvent(ctx, 'initializeEscrowAccount', { chainID: escrowChainID, tokenID, initializationFee }, [
      escrowChainID,
    ]);
  }

  /** Takes a CCM's fee from the sender in the channel's message fee token, escrowing it when the token is native. */
  payMessageFee(ctx: MethodContext, payFromAddress: Buffer, receivingChainID: Buffer, fee: bigint): void {
    if (fee < 0n) throw new Error('Invalid Message Fee');
    const messageFeeTokenID = this.interoperability.getMessageFeeTokenID(ctx, receivingChainID);
    const account = getUser(ctx, payFromAddress, messageFeeTokenID);
    if (account === undefined) throw missingAccount(payFromAddress, messageFeeTokenID);
    if (account.availableBalance < fee) {
      throw new Error(
        `Address ${addressToKlayr32(payFromAddress)} does not have sufficient balance ${account.availableBalance.toString()} to pay ${fee.toString()}`,
      );
    }
    account.availableBalance -= fee;
    saveUser(ctx, payFromAddress, messageFeeTokenID, account);
    if (this.isNativeToken(messageFeeTokenID)) addEscrowAmount(ctx, receivingChainID, messageFeeTokenID, fee);
  }

  /** Klayr's UserStore.addAvailableBalance: the account must exist; stored as read (no lock normalization). */
  addAvailableBalance(ctx: StoreAccess, address: Buffer, tokenID: Buffer, amount: bigint): void {
    const user = getUser(ctx, address, tokenID);
    if (user === undefined) throw missingAccount(address, tokenID);
    user.availableBalance += amount;
    tokenStore(ctx, 'user').setWithSchema(userKey(address, tokenID), user, userStoreSchema);
  }

  userSubstoreExists(ctx: StoreAccess, address: Buffer, tokenID: Buffer): boolean {
    return tokenStore(ctx, 'user').has(userKey(address, tokenID));
  }

  getAvailableBalance(ctx: StoreAccess, address: Buffer, tokenID: Buffer): bigint {
    return getUser(ctx, address, tokenID)?.availableBalance ?? 0n;
  }

  /** Creates an empty account, paying the initialization fee out of the fee at hand (the transaction's or the CCM's). */
  initializeUserAccount(ctx: Context, address: Buffer, tokenID: Buffer): void {
    if (this.userSubstoreExists(ctx, address, tokenID)) return;
    this.createUserAccount(ctx, address, tokenID);
  }

  /** Klayr's InternalMethod.initializeUserAccount: no existence check. */
  createUserAccount(ctx: Context, address: Buffer, tokenID: Buffer): void {
    const initializationFee = this.config.userAccountInitializationFee;
    payFee(ctx, initializationFee);
    saveUser(ctx, address, tokenID, { availableBalance: 0n, lockedBalances: [] });
    logTokenEvent(ctx, 'initializeUserAccount', { address, tokenID, initializationFee }, [address]);
  }

  transfer(ctx: Context, senderAddress: Buffer, recipientAddress: Buffer, tokenID: Buffer, amount: bigint): void {
    if (amount <= 0n) return;
    const data = { senderAddress, recipientAddress, tokenID, amount };
    const sender = getUser(ctx, senderAddress, tokenID);
    if (sender === undefined || sender.availableBalance < amount) {
      logTokenEvent(
        ctx,
        'transfer',
        data,
        [senderAddress, recipientAddress],
        TOKEN_EVENT_RESULT.FAIL_INSUFFICIENT_BALANCE,
      );
      throw sender === undefined
        ? new Error(`Token account for ${addressToKlayr32(senderAddress)} does not exist.`)
        : insufficient(senderAddress, amount);
    }
    if (!this.userSubstoreExists(ctx, recipientAddress, tokenID))
      this.createUserAccount(ctx, recipientAddress, tokenID);
    this.internalTransfer(ctx, senderAddress, recipientAddress, tokenID, amount);
  }

  /** Moves tokens between two existing accounts (Klayr's InternalMethod.transfer). */
  internalTransfer(
    ctx: Context,
    senderAddress: Buffer,
    recipientAddress: Buffer,
    tokenID: Buffer,
    amount: bigint,
  ): void {
    const sender = getUser(ctx, senderAddress, tokenID);
    if (sender === undefined) throw missingAccount(senderAddress, tokenID);
    if (sender.availableBalance < amount)
      throw insufficientBalanceError(senderAddress, sender.availableBalance, amount);
    sender.availableBalance -= amount;
    saveUser(ctx, senderAddress, tokenID, sender);
    const recipient = getUser(ctx, recipientAddress, tokenID);
    if (recipient === undefined)
      throw new Error(`Token account for ${addressToKlayr32(recipientAddress)} does not exist.`);
    recipient.availableBalance += amount;
    saveUser(ctx, recipientAddress, tokenID, recipient);
    logTokenEvent(ctx, 'transfer', { senderAddress, recipientAddress, tokenID, amount }, [
      senderAddress,
      recipientAddress,
    ]);
  }

  mint(ctx: Context, address: Buffer, tokenID: Buffer, amount: bigint): void {
    if (amount <= 0n) return;
    const data = { address, tokenID, amount };
    const fail = (code: number, message: string): never => {
      logTokenEvent(ctx, 'mint', data, [address], code);
      throw new Error(message);
    };
    if (!this.isNativeToken(tokenID))
      fail(TOKEN_EVENT_RESULT.MINT_NOT_NATIVE_TOKEN, 'Only native token can be minted.');
    const supplies = tokenStore(ctx, 'supply');
    const supply = supplies.getWithSchema<{ totalSupply: bigint }>(tokenID, supplyStoreSchema);
    if (supply === undefined) {
      fail(TOKEN_EVENT_RESULT.TOKEN_NOT_INITIALIZED, `TokenID: ${tokenID.toString('hex')} is not initialized.`);
      return;
    }
    const tooMuch = `TokenID: ${tokenID.toString('hex')} with ${amount.toString()} exceeds maximum range allowed.`;
    if (supply.totalSupply + amount >= MAX_UINT64_EXCLUSIVE) fail(TOKEN_EVENT_RESULT.MINT_MAXIMUM_SUPPLY, tooMuch);
    if (this.getAvailableBalance(ctx, address, tokenID) + amount >= MAX_UINT64_EXCLUSIVE)
      fail(TOKEN_EVENT_RESULT.MINT_MAXIMUM_SUPPLY, tooMuch);
    if (!this.userSubstoreExists(ctx, address, tokenID)) this.createUserAccount(ctx, address, tokenID);
    const user = getUser(ctx, address, tokenID);
    if (user === undefined) throw missingAccount(address, tokenID);
    user.availableBalance += amount;
    saveUser(ctx, address, tokenID, user);
    supplies.setWithSchema(tokenID, { totalSupply: supply.totalSupply + amount }, supplyStoreSchema);
    logTokenEvent(ctx, 'mint', data, [address]);
  }

  burn(ctx: Context, address: Buffer, tokenID: Buffer, amount: bigint): void {
    if (amount <= 0n) return;
    const data = { address, tokenID, amount };
    const user = getUser(ctx, address, tokenID);
    if (user === undefined || user.availableBalance < amount) {
      logTokenEvent(ctx, 'burn', data, [address], TOKEN_EVENT_RESULT.FAIL_INSUFFICIENT_BALANCE);
      throw user === undefined
        ? new Error(`Token account for ${addressToKlayr32(address)} does not exist.`)
        : insufficient(address, amount);
    }
    user.availableBalance -= amount;
    tokenStore(ctx, 'user').setWithSchema(userKey(address, tokenID), user, userStoreSchema);
    if (this.isNativeToken(tokenID)) {
      const supplies = tokenStore(ctx, 'supply');
      const supply = supplies.getWithSchema<{ totalSupply: bigint }>(tokenID, supplyStoreSchema);
      if (supply === undefined) throw new Error(`TokenID: ${tokenID.toString('hex')} is not initialized.`);
      supplies.setWithSchema(tokenID, { totalSupply: supply.totalSupply - amount }, supplyStoreSchema);
    }
    logTokenEvent(ctx, 'burn', data, [address]);
  }

  lock(ctx: Context, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void {
    if (amount <= 0n) return;
    const data = { address, module, tokenID, amount };
    const user = getUser(ctx, address, tokenID);
    if (user === undefined || user.availableBalance < amount) {
      logTokenEvent(ctx, 'lock', data, [address], TOKEN_EVENT_RESULT.FAIL_INSUFFICIENT_BALANCE);
      throw user === undefined
        ? new Error(`Token account for ${addressToKlayr32(address)} does not exist.`)
        : insufficient(address, amount);
    }
    user.availableBalance -= amount;
    const existing = user.lockedBalances.find((l) => l.module === module);
    if (existing !== undefined) existing.amount += amount;
    else user.lockedBalances.push({ module, amount });
    saveUser(ctx, address, tokenID, user);
    logTokenEvent(ctx, 'lock', data, [address]);
  }

  unlock(ctx: Context, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void {
    if (amount <= 0n) return;
    const data = { address, module, tokenID, amount };
    const user = getUser(ctx, address, tokenID);
    if (user === undefined) {
      logTokenEvent(ctx, 'unlock', data, [address], TOKEN_EVENT_RESULT.FAIL_INSUFFICIENT_BALANCE);
      throw new Error(`Token account for ${addressToKlayr32(address)} does not exist.`);
    }
    const existing = user.lockedBalances.find((l) => l.module === module);
    if (existing === undefined || existing.amount < amount) {
      logTokenEvent(ctx, 'unlock', data, [address], TOKEN_EVENT_RESULT.INSUFFICIENT_LOCKED_AMOUNT);
      throw new Error(
        existing === undefined
          ? `Address ${addressToKlayr32(address)} does not have locked balance for module ${module}`
          : `Address ${addressToKlayr32(address)} does not have sufficient locked balance for amount ${amount.toString()} for module ${module}`,
      );
    }
    existing.amount -= amount;
    user.availableBalance += amount;
    saveUser(ctx, address, tokenID, user);
    logTokenEvent(ctx, 'unlock', data, [address]);
  }
}

/** Amount `module` has locked on the account's `tokenID` balance (0 without an account). */
export const getLockedAmount = (ctx: StoreAccess, address: Buffer, tokenID: Buffer, module: string): bigint =>
  getUser(ctx, address, tokenID)?.lockedBalances.find((l) => l.module === module)?.amount ?? 0n;
