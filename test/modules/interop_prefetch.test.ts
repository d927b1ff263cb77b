import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prefetchAggregateSignatures } from '../../src/engine/pools/aggregate_prefetch.js';
import type { BlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import type { Command } from '../../src/engine/state_machine/module.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { compile } from '../../src/lib/codec/index.js';
import type { CCUParams } from '../../src/lib/interop/schemas.js';
import { crossChainUpdateParamsSchema } from '../../src/lib/interop/schemas.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { chainAccounts } from '../../src/modules/interoperability/base/state.js';
import {
  blsValidators,
  commandCtx,
  emptyCCU,
  HEADER_TIMESTAMP,
  mainchainFixture,
  registerPartner,
  SIDECHAIN_ID,
  signedCertificate,
} from '../helpers/interop_fixture.js';

const validators = blsValidators(3, 51);
const THRESHOLD = 21n;
const entries = validators.map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight }));

const ccu = (height: number): CCUParams => ({
  ...emptyCCU(SIDECHAIN_ID, THRESHOLD),
  certificate: signedCertificate(SIDECHAIN_ID, validators, {
    blockID: Buffer.alloc(32, height),
    height,
    timestamp: HEADER_TIMESTAMP - 5,
    stateRoot: Buffer.alloc(32, 2),
    validatorsHash: computeValidatorsHash(entries, THRESHOLD),
  }),
});
const tx = (params: CCUParams): TransactionObject => ({
  module: 'interoperability',
  command: 'submitMainchainCrossChainUpdate',
  nonce: 0n,
  fee: 0n,
  senderPublicKey: Buffer.alloc(32),
  params: compile<CCUParams>(crossChainUpdateParamsSchema).encode(params),
  signatures: [],
});

/** A verifier that answers `verdict` for every aggregate and counts the calls. */
const scripted = (verdict: boolean): BlsVerifier & { calls: number } => {
  const local = createLocalBlsVerifier();
  const v = {
    ...local,
    calls: 0,
    verifyAggregate: async () => {
      v.calls++;
      return verdict;
    },
  };
  return v;
};

describe('certificate signatures checked ahead of execution', () => {
  const setup = () => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, THRESHOLD, 1);
    const command = f.module.commands.find(
      (c) => c.name === 'submitMainchainCrossChainUpdate',
    ) as unknown as Command<CCUParams>;
    return {
      f,
      execute: (p: CCUParams) => command.execute(commandCtx(f, command.name, p, crossChainUpdateParamsSchema)),
    };
  };

  it('the module names the certificate check of a CCU, from committed state; none for other transactions or undecodable params', () => {
    const { f } = setup();
    const [check] = f.module.transactionAggregateSignatures(tx(ccu(101)), f);
    assert.ok(check !== undefined);
    assert.deepEqual(
      check.publicKeys,
      validators.map((v) => v.blsKey),
    );
    assert.equal(check.threshold, THRESHOLD);
    assert.equal(check.tag, 'KLY_CE_');
    assert.deepEqual(f.module.transactionAggregateSignatures({ ...tx(ccu(101)), command: 'registerSidechain' }, f), []);
    assert.deepEqual(
      f.module.transactionAggregateSignatures({ ...tx(ccu(101)), params: Buffer.from('ff', 'hex') }, f),
      [],
    );
    assert.deepEqual(f.module.transactionAggregateSignatures({ ...tx(ccu(101)), module: 'token' }, f), []);
  });

  it('execution uses the verdict computed ahead (here a verifier that says invalid), not a pairing of its own', async () => {
    const { f, execute } = setup();
    const params = ccu(102);
    const verifier = scripted(false);
    await prefetchAggregateSignatures(f.module.transactionAggregateSignatures(tx(params), f), verifier);
    assert.equal(verifier.calls, 1);
    assert.throws(() => execute(params), { message: 'Certificate is not a valid aggregate signature.' });
  });

  it('with the real verifier, the remembered verdict lets the valid certificate through', async () => {
    const { f, execute } = setup();
    const params = ccu(103);
    await prefetchAggregateSignatures(f.module.transactionAggregateSignatures(tx(params), f), createLocalBlsVerifier());
    execute(params);
    assert.equal(chainAccounts.get(f, SIDECHAIN_ID)!.lastCertificate.height, 103);
  });

  it('without a verdict ahead (a miss), the module verifies on the spot', () => {
    const { f, execute } = setup();
    execute(ccu(104));
    assert.equal(chainAccounts.get(f, SIDECHAIN_ID)!.lastCertificate.height, 104);
    assert.throws(
      () =>
        execute({
          ...ccu(105),
          certificate: signedCertificate(
            SIDECHAIN_ID,
            validators,
            {
              blockID: Buffer.alloc(32, 1),
              height: 105,
              timestamp: HEADER_TIMESTAMP - 5,
              stateRoot: Buffer.alloc(32, 2),
              validatorsHash: computeValidatorsHash(entries, THRESHOLD),
            },
            validators.slice(0, 1),
          ),
        }),
      {
        message: 'Certificate is not a valid aggregate signature.',
      },
    );
  });
});
