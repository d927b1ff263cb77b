import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointServices } from '../../src/engine/state_machine/module.js';
import { compileValidator } from '../../src/lib/codec/index.js';
import type { EndpointDefinition, Endpoints } from '../../src/lib/endpoint/definition.js';
import type { Fixture } from '../helpers/interop_fixture.js';
import {
  blsValidators,
  MAINCHAIN_ID,
  mainchainFixture,
  registerPartner,
  SIDECHAIN_ID,
  sidechainFixture,
} from '../helpers/interop_fixture.js';

/** As the dispatcher calls them: the params schema first, then the handler. */
const call = async (
  endpoint: EndpointDefinition | undefined,
  params: Record<string, unknown> = {},
): Promise<unknown> => {
  assert.ok(endpoint !== undefined, 'endpoint served');
  if (endpoint.params !== undefined) {
    const issues = compileValidator(endpoint.params)(params);
    if (issues.length > 0) throw new Error(issues[0]!.message);
  }
  return endpoint.handler({ params, transport: 'ipc' });
};

const endpointsOf = (f: Fixture<{ endpoints(s: EndpointServices): Endpoints }>): Endpoints =>
  f.module.endpoints({ state: () => f } as unknown as EndpointServices);
const validators = blsValidators(2, 21);

describe('sidechain interoperability endpoints', () => {
  const f = sidechainFixture();
  registerPartner(f, MAINCHAIN_ID, 'klayr_mainchain', validators, 14n, 1, { height: 5, timestamp: 1000 });
  const endpoints = endpointsOf(f);

  it('serves the base set, getMainchainID and getCCMSchema, and not the mainchain set', () => {
    assert.deepEqual(Object.keys(endpoints).sort(), [
      'getAllChainAccounts',
      'getCCMSchema',
      'getChainAccount',
      'getChainValidators',
      'getChannel',
      'getMainchainID',
      'getOwnChainAccount',
      'getTerminatedOutboxAccount',
      'getTerminatedStateAccount',
    ]);
    assert.deepEqual(f.module.endpointDeclarations.published.map((e) => e.name).sort(), Object.keys(endpoints).sort());
  });

  it("getMainchainID: the network's mainchain of any chain ID", async () => {
    assert.deepEqual(await call(endpoints.getMainchainID, { chainID: '04abcdef' }), { mainchainID: '04000000' });
    assert.deepEqual(await call(endpoints.getMainchainID, { chainID: '01000000' }), { mainchainID: '01000000' });
  });

  for (const bad of [{}, { chainID: '0400' }, { chainID: 'zz000000' }, { chainID: 4 }]) {
    it(`getMainchainID refuses ${JSON.stringify(bad)}`, async () => {
      await assert.rejects(call(endpoints.getMainchainID, bad));
    });
  }

  it('getChainAccount, getChannel, getChainValidators and getOwnChainAccount answer as JSON', async () => {
    const account = (await call(endpoints.getChainAccount, { chainID: '04000000' })) as {
      name: string;
      status: number;
      lastCertificate: { height: number; stateRoot: string };
    };
    assert.deepEqual(
      [account.name, account.status, account.lastCertificate.height, typeof account.lastCertificate.stateRoot],
      ['klayr_mainchain', 1, 5, 'string'],
    );
    const channel = (await call(endpoints.getChannel, { chainID: '04000000' })) as Record<string, unknown>;
    assert.deepEqual(Object.keys(channel).sort(), [
      'inbox',
      'messageFeeTokenID',
      'minReturnFeePerByte',
      'outbox',
      'partnerChainOutboxRoot',
    ]);
    assert.equal(channel.minReturnFeePerByte, '1000');
    const chainValidators = (await call(endpoints.getChainValidators, { chainID: '04000000' })) as {
      activeValidators: { blsKey: string; bftWeight: string }[];
      certificateThreshold: string;
    };
    assert.deepEqual(
      chainValidators.activeValidators.map((v) => v.blsKey),
      validators.map((v) => v.blsKey.toString('hex')),
    );
    assert.equal(chainValidators.certificateThreshold, '14');
    assert.deepEqual(await call(endpoints.getOwnChainAccount), {
      chainID: SIDECHAIN_ID.toString('hex'),
      name: 'sidechain_one',
      nonce: '1',
    });
    assert.deepEqual(await call(endpoints.getAllChainAccounts, { chainID: '00000000' }), { chains: [account] });
  });

  it('errors for a chain it does not know', async () => {
    await assert.rejects(call(endpoints.getChainAccount, { chainID: '04000009' }));
    await assert.rejects(call(endpoints.getChainValidators, { chainID: '04000009' }), {
      message: 'Chain account does not exist.',
    });
    await assert.rejects(call(endpoints.getTerminatedStateAccount, { chainID: '04000009' }));
  });
});

describe('mainchain interoperability endpoints', () => {
  const f = mainchainFixture();
  registerPartner(f, SIDECHAIN_ID, 'sidechain_one', validators, 14n, 0);
  const endpoints = endpointsOf(f);

  it('serves the base set, the mainchain set and getCCMSchema, not getMainchainID', () => {
    for (const name of [
      'getRegistrationFee',
      'getMinimumMessageFee',
      'isChainIDAvailable',
      'isChainNameAvailable',
      'getChainAccount',
      'getCCMSchema',
    ])
      assert.ok(endpoints[name] !== undefined, name);
    assert.equal(endpoints.getMainchainID, undefined);
  });

  it("isChainIDAvailable: false for a registered chain, its own and another network's; true otherwise", async () => {
    assert.deepEqual(await call(endpoints.isChainIDAvailable, { chainID: '04000001' }), { result: false });
    assert.deepEqual(await call(endpoints.isChainIDAvailable, { chainID: '04000000' }), { result: false });
    assert.deepEqual(await call(endpoints.isChainIDAvailable, { chainID: '05000001' }), { result: false });
    assert.deepEqual(await call(endpoints.isChainIDAvailable, { chainID: '04000002' }), { result: true });
  });

  it('getRegistrationFee and getMinimumMessageFee', async () => {
    assert.deepEqual(await call(endpoints.getRegistrationFee), { fee: '1000000000' });
    assert.deepEqual(await call(endpoints.getMinimumMessageFee), { fee: '1000' });
  });
});
