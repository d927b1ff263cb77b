import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { codec } from '../../src/lib/codec/index.js';
import { MESSAGE_TAG_CERTIFICATE, MESSAGE_TAG_CHAIN_REG } from '../../src/lib/crypto/tags.js';
import { computeStorePrefix } from '../../src/lib/state/keys.js';
import { InteropChains } from '../helpers/interop_oracle.js';
import { KLY, PartnerChain } from '../helpers/interop_oracle_partner.js';
import type { ScenarioReport } from '../helpers/interop_oracle_scenario.js';
import { crossCheckCCUParams, runMainchainScenario } from '../helpers/interop_oracle_scenario.js';
import { runSidechainScenario } from '../helpers/interop_oracle_sidechain_scenario.js';
import { devAccount, registerSidechainTx } from '../helpers/interop_oracle_tx.js';
import { klayrInteropConstants } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';

// at least 100 generated scenarios in all (mainchain and sidechain); more with KESTREL_INTEROP_SCENARIOS
const { UserStore, userStoreSchema } = createRequire(import.meta.url)(
  'klayr-framework/dist-node/modules/token/stores/user',
);

const SCENARIOS = Number(process.env.KESTREL_INTEROP_SCENARIOS ?? 75);
const SIDECHAIN_SCENARIOS = Number(process.env.KESTREL_INTEROP_SIDECHAIN_SCENARIOS ?? 25);
const FIRST_SEED = Number(process.env.KESTREL_INTEROP_SEED ?? 1);

const summary = (reports: ScenarioReport[]): string =>
  reports
    .filter((r) => r.differences.length > 0)
    .slice(0, 8)
    .map(
      (r) =>
        `seed ${r.seed}: ${r.differences
          .slice(0, 3)
          .map((d) => `[${d.step} @${d.height} ${d.what}] ${d.detail}`)
          .join('\n    ')}`,
    )
    .join('\n');

describe('the interoperability differential harness', () => {
  it("signs registrations and certificates with klayr-framework's tags", () => {
    assert.equal(MESSAGE_TAG_CHAIN_REG, klayrInteropConstants.MESSAGE_TAG_CHAIN_REG);
    assert.equal(MESSAGE_TAG_CERTIFICATE, klayrInteropConstants.MESSAGE_TAG_CERTIFICATE);
  });

  it('reports a state entry that differs, and a block only one side accepts', async () => {
    const chains = await InteropChains.start(new Rng(7));
    chains.state.set(
      Buffer.concat([computeStorePrefix('token'), Buffer.from('0000', 'hex'), Buffer.alloc(28, 1)]),
      Buffer.from('01', 'hex'),
    );
    const first = await chains.step('tampered state', []);
    assert.equal(first.accepted, true);
    assert.deepEqual(
      first.differences.map((d) => d.what),
      ['state'],
    );

    // the sender's balance emptied on Kestrel's side only: Kestrel refuses the registration Klayr accepts
    const funder = devAccount(0);
    const balanceKey = Buffer.concat([chains.modules.token.stores.get(UserStore).key, funder.address, KLY]);
    chains.state.set(balanceKey, codec.encode(userStoreSchema, { availableBalance: 0n, lockedBalances: [] }));
    const sidechain = new PartnerChain(
      Buffer.from('04000009', 'hex'),
      'harness_check',
      new Rng(1),
      { outboxRoot: Buffer.alloc(6), channel: Buffer.alloc(6), tokenUser: Buffer.alloc(6) },
      2,
      0,
    );
    const second = await chains.step('registration Kestrel cannot verify', [
      registerSidechainTx(funder, sidechain.registrationParams()).tx,
    ]);
    assert.equal(second.accepted, true);
    assert.ok(
      second.differences.some((d) => d.what === 'decision'),
      JSON.stringify(second.differences),
    );
  });
});

describe('interoperability on the mainchain: Kestrel against klayr-framework, block by block', () => {
  const reports: ScenarioReport[] = [];

  it(`${SCENARIOS} generated scenarios: same decisions, refusals, results, events and state after every block`, {
    timeout: 600_000,
  }, async () => {
    for (let seed = FIRST_SEED; seed < FIRST_SEED + SCENARIOS; seed++)
      reports.push(await runMainchainScenario(seed, process.env.KESTREL_INTEROP_GO_ON !== '1'));
    const features = new Set(reports.flatMap((r) => [...r.features]));
    if (process.env.KESTREL_INTEROP_VERBOSE === '1') {
      for (const r of reports) process.stdout.write(`seed ${r.seed}\n  ${r.steps.join('\n  ')}\n`);
      process.stdout.write(`${[...features].sort().join('\n')}\n`);
    }
    assert.equal(
      summary(reports),
      '',
      `${reports.filter((r) => r.differences.length > 0).length} of ${reports.length} scenarios differ`,
    );
    // the scenarios reach what they are meant to exercise (Klayr's events and decisions)
    for (const feature of [
      'event interoperability:chainAccountUpdated',
      'event interoperability:ccmSendSuccess',
      'event interoperability:ccmProcessed',
      'event interoperability:invalidCertificateSignature',
      'event interoperability:terminatedStateCreated',
      'event interoperability:terminatedOutboxCreated',
      'event token:ccmTransfer',
      'event token:recover',
      'liveness',
      'B terminated',
      'recoverMessage sent',
    ]) {
      assert.ok(features.has(feature), `some scenario reaches ${feature}`);
    }
  });

  it(`${SIDECHAIN_SCENARIOS} generated sidechain scenarios (registerMainchain, the mainchain's CCUs): same decisions, refusals, results, events and state`, {
    timeout: 600_000,
  }, async () => {
    const sidechain: ScenarioReport[] = [];
    for (let seed = FIRST_SEED; seed < FIRST_SEED + SIDECHAIN_SCENARIOS; seed++)
      sidechain.push(await runSidechainScenario(seed, process.env.KESTREL_INTEROP_GO_ON !== '1'));
    reports.push(...sidechain);
    const features = new Set(sidechain.flatMap((r) => [...r.features]));
    if (process.env.KESTREL_INTEROP_VERBOSE === '1') {
      for (const r of sidechain) process.stdout.write(`sidechain seed ${r.seed}\n  ${r.steps.join('\n  ')}\n`);
      process.stdout.write(`${[...features].sort().join('\n')}\n`);
    }
    assert.equal(
      summary(sidechain),
      '',
      `${sidechain.filter((r) => r.differences.length > 0).length} of ${sidechain.length} sidechain scenarios differ`,
    );
    for (const feature of [
      'sidechain registerMainchain result 1',
      'sidechain event interoperability:invalidCertificateSignature',
      'sidechain ccmProcessed token:transferCrossChain result=0,code=0',
      'sidechain: mainchain terminated',
      'sidechain: state recovery initialized',
      'sidechain event token:transferCrossChain',
    ]) {
      assert.ok(features.has(feature), `some sidechain scenario reaches ${feature}`);
    }
  });

  it("every CCU built decodes alike with klayr-framework's crossChainUpdateTransactionParams and Kestrel's schema", () => {
    const params = reports.flatMap((r) => r.ccuParams);
    assert.ok(params.length > SCENARIOS + SIDECHAIN_SCENARIOS, 'CCUs were built');
    assert.deepEqual(
      params.map(crossCheckCCUParams).filter((e) => e !== undefined),
      [],
    );
  });
});
