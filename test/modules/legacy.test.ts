import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import { StateMachine } from '../../src/engine/state_machine/state_machine.js';
import type { Block } from '../../src/lib/chain/block.js';
import { codec } from '../../src/lib/codec/index.js';
import { addressFromPublicKey } from '../../src/lib/crypto/address.js';
import { blsKeyGen, blsPopProve, blsPublicKeyFromPrivateKey } from '../../src/lib/crypto/bls.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { keyPairFromSeed } from '../../src/lib/crypto/index.js';
import { computeMinFee, signTransaction } from '../../src/lib/transaction/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { legacyEndpoints } from '../../src/modules/legacy/endpoint.js';
import { reclaimParamsSchema, registerKeysParamsSchema } from '../../src/modules/legacy/schemas.js';
import {
  ADDRESS_LEGACY_RESERVE,
  legacyAccountStoreSchema,
  legacyAddressOf,
  legacyStore,
} from '../../src/modules/legacy/stores.js';
import { getValidatorAccount, setValidatorAccount } from '../../src/modules/pos/method.js';
import { randomAssetSchema } from '../../src/modules/random/method.js';
import { TokenMethod } from '../../src/modules/token/method.js';
import { getValidatorsParams, INVALID_BLS_KEY } from '../../src/modules/validators/method.js';
import { validatorKeysSchema } from '../../src/modules/validators/schemas.js';
import { validatorsStore } from '../../src/modules/validators/stores.js';
import { devValidators } from '../helpers/devnet.js';
import { devnetChainID, devnetGenesis } from '../helpers/genesis_compare.js';

const TOKEN_ID = Buffer.from('0400000000000000', 'hex');

describe('legacy module (Klayr Core): reclaim and key registration', () => {
  it('a legacy account is reclaimed once, for its exact balance; a banned validator without a BLS key registers its keys and is unbanned', () => {
    const config = loadConfig();
    const modules = applicationModules(config);
    const machine = new StateMachine(modules);
    const genesis = devnetGenesis();
    const state = new BlockState(EMPTY_STATE);
    executeGenesis(modules, genesis, devnetChainID, state);
    const view = { store: (p: Buffer, s: Buffer) => new SubStore(state, p, s) };
    const ctx = { ...view, events: { add: () => undefined } as never, contextStore: new Map() };
    const token = new TokenMethod({
      ownChainID: devnetChainID,
      userAccountInitializationFee: 5000000n,
      escrowAccountInitializationFee: 5000000n,
    });

    // a legacy account for a key we hold, backed by the reserve's locked balance as the genesis ones are
    const owner = keyPairFromSeed(sha256(Buffer.from('kestrel legacy owner')));
    const legacyAddress = legacyAddressOf(owner.publicKey);
    legacyStore(view).setWithSchema(legacyAddress, { balance: 777000000n }, legacyAccountStoreSchema);
    token.mint(ctx, ADDRESS_LEGACY_RESERVE, TOKEN_ID, 777000000n);
    token.lock(ctx, ADDRESS_LEGACY_RESERVE, 'legacy', TOKEN_ID, 777000000n);
    token.transfer(
      { ...ctx, contextStore: new Map([['CONTEXT_STORE_KEY_AVAILABLE_FEE', 5000000n]]) },
      addressFromPublicKey(Buffer.from(devValidators()[0]!.publicKey, 'hex')),
      addressFromPublicKey(owner.publicKey),
      TOKEN_ID,
      100000000n,
    );
    assert.deepEqual(
      legacyEndpoints(() => view).getLegacyAccount!.handler({
        params: { publicKey: owner.publicKey.toString('hex') },
        transport: 'ipc',
      }),
      { legacyAddress: legacyAddress.toString('hex'), balance: '777000000' },
    );

    // a genesis validator that lost its BLS key and is banned (as migrated validators start)
    const migrated = devValidators()[3]!;
    const migratedAddress = addressFromPublicKey(Buffer.from(migrated.publicKey, 'hex'));
    const keys = validatorsStore(view, 'validatorKeys');
    const oldKeys = keys.getWithSchema<{ generatorKey: Buffer; blsKey: Buffer }>(migratedAddress, validatorKeysSchema)!;
    keys.setWithSchema(migratedAddress, { ...oldKeys, blsKey: INVALID_BLS_KEY }, validatorKeysSchema);
    setValidatorAccount(view, migratedAddress, { ...getValidatorAccount(view, migratedAddress), isBanned: true });
    const bls = blsKeyGen(sha256(Buffer.from('kestrel migrated bls')));
    const newGeneratorKey = keyPairFromSeed(sha256(Buffer.from('kestrel migrated generator'))).publicKey;

    const sign = (
      privateKey: Buffer,
      publicKey: Buffer,
      nonce: bigint,
      command: string,
      schema: Parameters<typeof codec.encode>[0],
      params: Record<string, unknown>,
    ) => {
      const base = {
        module: 'legacy',
        command,
        nonce,
        senderPublicKey: publicKey,
        params: codec.encode(schema, params),
      };
      return signTransaction({ ...base, fee: computeMinFee(base), signatures: [] }, devnetChainID, privateKey);
    };
    const reclaim = sign(owner.privateKey, owner.publicKey, 0n, 'reclaimKLY', reclaimParamsSchema, {
      amount: 777000000n,
    });
    const register = sign(
      Buffer.from(migrated.privateKey, 'hex'),
      Buffer.from(migrated.publicKey, 'hex'),
      0n,
      'registerKeys',
      registerKeysParamsSchema,
      {
        blsKey: blsPublicKeyFromPrivateKey(bls),
        proofOfPossession: blsPopProve(bls),
        generatorKey: newGeneratorKey,
      },
    );
    const validators = getValidatorsParams(view).validators;
    const timestamp = genesis.header.timestamp + 7;
    const block: Block = {
      header: {
        ...genesis.header,
        height: 1,
        timestamp,
        generatorAddress: validators[Math.floor(timestamp / 7) % validators.length]!.address,
      },
      transactions: [reclaim, register],
      assets: [{ module: 'random', data: codec.encode(randomAssetSchema, { seedReveal: Buffer.alloc(16, 1) }) }],
    };
    const result = machine.executeBlock(block, devnetChainID, state);
    assert.deepEqual(result.results, [1, 1]);
    assert.deepEqual(
      result.events.filter((e) => e.module === 'legacy' && e.name !== 'commandExecutionResult').map((e) => e.name),
      ['accountReclaimed', 'keysRegistered'],
    );
    assert.equal(legacyStore(view).has(legacyAddress), false);
    assert.equal(
      token.getAvailableBalance(view, addressFromPublicKey(owner.publicKey), TOKEN_ID),
      100000000n + 777000000n - reclaim.fee,
    );
    const registered = keys.getWithSchema<{ generatorKey: Buffer; blsKey: Buffer }>(
      migratedAddress,
      validatorKeysSchema,
    )!;
    assert.ok(
      registered.blsKey.equals(blsPublicKeyFromPrivateKey(bls)) && registered.generatorKey.equals(newGeneratorKey),
    );
    assert.equal(getValidatorAccount(view, migratedAddress).isBanned, false);

    // a second reclaim has nothing to reclaim; a second registration is refused: both fail verification
    const again = sign(owner.privateKey, owner.publicKey, 1n, 'reclaimKLY', reclaimParamsSchema, {
      amount: 777000000n,
    });
    assert.throws(
      () =>
        machine.executeBlock(
          { ...block, header: { ...block.header, height: 2, timestamp: timestamp + 7 }, transactions: [again] },
          devnetChainID,
          state,
        ),
      /Public key does not correspond to a reclaimable account/,
    );
  });
});
