import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CCMessage, SendContext } from '../../src/engine/state_machine/cross_chain.js';
import { compile } from '../../src/lib/codec/index.js';
import { EMPTY_HASH } from '../../src/modules/interoperability/base/constants.js';
import {
  chainAccounts,
  channels,
  getOwnChainAccount,
  outboxRoots,
  terminatedStates,
} from '../../src/modules/interoperability/base/state.js';
import { interoperabilityEventSchemas } from '../../src/modules/interoperability/events.js';
import { userStoreSchema } from '../../src/modules/token/schemas.js';
import { tokenStore, userKey } from '../../src/modules/token/stores.js';
import type { Fixture } from '../helpers/interop_fixture.js';
import {
  blsValidators,
  ccmCtx,
  emptyCCU,
  eventList,
  HEADER_TIMESTAMP,
  KLY,
  MAINCHAIN_ID,
  mainchainFixture,
  registerPartner,
  SENDER,
  SIDECHAIN_ID,
  sidechainFixture,
} from '../helpers/interop_fixture.js';

const validators = blsValidators(1, 31);
const OTHER = Buffer.from('04000002', 'hex');
const sendCtx = (f: Fixture<unknown>): SendContext => ({
  events: f.events,
  contextStore: f.contextStore,
  store: f.store,
  chainID: f.chainID,
  state: f.state,
  header: f.header,
});
const sentFailedCode = (f: Fixture<unknown>) =>
  compile<{ code: number }>(interoperabilityEventSchemas.ccmSentFailed).decode(
    eventList(f.events).find((e) => e.name === 'ccmSentFailed')!.data,
  ).code;
const fund = (f: Fixture<unknown>, amount: bigint) =>
  tokenStore(f, 'user').setWithSchema(
    userKey(SENDER, KLY),
    { availableBalance: amount, lockedBalances: [] },
    userStoreSchema,
  );

const sidechainWithMainchain = (status = 1) => {
  const f = sidechainFixture();
  registerPartner(f, MAINCHAIN_ID, 'klayr_mainchain', validators, 10n, status);
  return f;
};

describe('InteroperabilityMethod.send', () => {
  it('appends the CCM to the mainchain channel for a chain the sidechain has no channel to, and logs ccmSendSuccess', () => {
    const f = sidechainWithMainchain();
    f.module.method.send(sendCtx(f), SENDER, 'token', 'crossChainTransfer', OTHER, 0n, Buffer.from('01', 'hex'));
    assert.equal(channels.get(f, MAINCHAIN_ID)!.outbox.size, 1);
    assert.deepEqual(outboxRoots.get(f, MAINCHAIN_ID), { root: channels.get(f, MAINCHAIN_ID)!.outbox.root });
    assert.equal(getOwnChainAccount(f).nonce, 2n);
    const [event] = eventList(f.events);
    assert.equal(event!.name, 'ccmSendSuccess');
    assert.deepEqual(event!.topics.slice(0, 2), [SIDECHAIN_ID.toString('hex'), OTHER.toString('hex')]);
    const { ccm } = compile<{ ccm: CCMessage }>(interoperabilityEventSchemas.ccmSendSuccess).decode(event!.data);
    assert.deepEqual(
      {
        nonce: ccm.nonce,
        status: ccm.status,
        sendingChainID: ccm.sendingChainID,
        receivingChainID: ccm.receivingChainID,
      },
      { nonce: 1n, status: 0, sendingChainID: SIDECHAIN_ID, receivingChainID: OTHER },
    );
  });

  it("pays the message fee into the receiving chain's escrow (KLY is not the sidechain's token: the sender's balance only)", () => {
    const f = sidechainWithMainchain();
    fund(f, 1000n);
    f.module.method.send(sendCtx(f), SENDER, 'token', 'crossChainTransfer', MAINCHAIN_ID, 400n, Buffer.alloc(0));
    assert.equal(f.token.getAvailableBalance(f, SENDER, KLY), 600n);
  });

  const failures: [string, (f: ReturnType<typeof sidechainFixture>) => void, number, string][] = [
    [
      'a module name that is not alphanumeric',
      (f) => f.module.method.send(sendCtx(f), SENDER, 'to-ken', 'transfer', MAINCHAIN_ID, 0n, Buffer.alloc(0)),
      13,
      'Invalid CCM format.',
    ],
    [
      'params over the CCM size limit',
      (f) => f.module.method.send(sendCtx(f), SENDER, 'token', 'transfer', MAINCHAIN_ID, 0n, Buffer.alloc(10_240)),
      13,
      'Invalid CCM format.',
    ],
    [
      'its own chain as receiver',
      (f) => f.module.method.send(sendCtx(f), SENDER, 'token', 'transfer', SIDECHAIN_ID, 0n, Buffer.alloc(0)),
      14,
      'Sending chain cannot be the receiving chain.',
    ],
    [
      'a terminated receiving chain',
      (f) => {
        terminatedStates.set(f, OTHER, {
          stateRoot: EMPTY_HASH,
          mainchainStateRoot: Buffer.alloc(32, 1),
          initialized: false,
        });
        f.module.method.send(sendCtx(f), SENDER, 'token', 'transfer', OTHER, 0n, Buffer.alloc(0));
      },
      1,
      'Receiving chain is not live.',
    ],
    [
      'a fee the sender cannot pay',
      (f) => f.module.method.send(sendCtx(f), SENDER, 'token', 'transfer', MAINCHAIN_ID, 5n, Buffer.alloc(0)),
      11,
      'Failed to pay message fee.',
    ],
  ];
  for (const [what, send, code, message] of failures) {
    it(`refuses ${what}: ccmSentFailed code ${code}, kept`, () => {
      const f = sidechainWithMainchain();
      assert.throws(() => send(f), { message });
      assert.equal(sentFailedCode(f), code);
      assert.equal(getOwnChainAccount(f).nonce, 1n);
    });
  }

  it('refuses a receiving chain that is registered but not active (code 1)', () => {
    const f = sidechainWithMainchain(0);
    assert.throws(
      () => f.module.method.send(sendCtx(f), SENDER, 'token', 'transfer', MAINCHAIN_ID, 0n, Buffer.alloc(0)),
      { message: 'Receiving chain is not active.' },
    );
    assert.equal(sentFailedCode(f), 1);
  });

  it('on the mainchain, requires the timestamp', () => {
    const f = mainchainFixture();
    registerPartner(f, SIDECHAIN_ID, 'side', validators, 10n, 1);
    assert.throws(
      () => f.module.method.send(sendCtx(f), SENDER, 'token', 'transfer', SIDECHAIN_ID, 0n, Buffer.alloc(0)),
      { message: 'Timestamp must be provided in mainchain context.' },
    );
    f.module.method.send(sendCtx(f), SENDER, 'token', 'transfer', SIDECHAIN_ID, 0n, Buffer.alloc(0), HEADER_TIMESTAMP);
    assert.equal(channels.get(f, SIDECHAIN_ID)!.outbox.size, 1);
  });
});

describe('InteroperabilityMethod.error, terminateChain and the fee token lookups', () => {
  it('error refuses the reserved statuses 0 to 63', () => {
    const f = sidechainWithMainchain();
    const ccm: CCMessage = {
      module: 'token',
      crossChainCommand: 'transfer',
      nonce: 0n,
      fee: 0n,
      sendingChainID: MAINCHAIN_ID,
      receivingChainID: SIDECHAIN_ID,
      status: 0,
      params: Buffer.alloc(0),
    };
    const ctx = ccmCtx(f, ccm, emptyCCU(MAINCHAIN_ID, 10n));
    for (const status of [0, 63])
      assert.throws(() => f.module.method.error(ctx, ccm, status), {
        message: 'Error codes from 0 to 63 (inclusive) are reserved to the Interoperability module.',
      });
    f.module.method.error(ctx, ccm, 64);
    assert.equal(channels.get(f, MAINCHAIN_ID)!.outbox.size, 1);
  });

  it('terminateChain sends channelTerminated and creates the terminated state account once', () => {
    const f = sidechainWithMainchain();
    chainAccounts.set(f, MAINCHAIN_ID, {
      ...chainAccounts.get(f, MAINCHAIN_ID)!,
      lastCertificate: { ...chainAccounts.get(f, MAINCHAIN_ID)!.lastCertificate, stateRoot: Buffer.alloc(32, 4) },
    });
    f.module.method.terminateChain(sendCtx(f), OTHER);
    f.module.method.terminateChain(sendCtx(f), OTHER);
    assert.deepEqual(terminatedStates.get(f, OTHER), {
      stateRoot: EMPTY_HASH,
      mainchainStateRoot: Buffer.alloc(32, 4),
      initialized: false,
    });
    assert.deepEqual(
      eventList(f.events).map((e) => e.name),
      ['ccmSendSuccess', 'terminatedStateCreated'],
    );
  });

  it('terminating the mainchain itself marks its account terminated and removes its outbox root', () => {
    const f = sidechainWithMainchain();
    f.module.method.terminateChain(sendCtx(f), MAINCHAIN_ID);
    assert.equal(chainAccounts.get(f, MAINCHAIN_ID)!.status, 2);
    assert.equal(outboxRoots.get(f, MAINCHAIN_ID), undefined);
    assert.equal(terminatedStates.get(f, MAINCHAIN_ID)!.initialized, true);
  });

  it("getMessageFeeTokenID: the channel's, the mainchain's for unknown chains on a sidechain, errors otherwise", () => {
    const side = sidechainWithMainchain();
    assert.deepEqual(side.module.method.getMessageFeeTokenID(side, OTHER), KLY);
    assert.throws(() => side.module.method.getMessageFeeTokenID(side, SIDECHAIN_ID), {
      message: 'Channel with own chain account does not exist.',
    });
    const main = mainchainFixture();
    assert.throws(() => main.module.method.getMessageFeeTokenID(main, OTHER), { message: 'Channel does not exist.' });
    assert.equal(side.module.method.getMinReturnFeePerByte(side, MAINCHAIN_ID), 1000n);
  });

  it("isChannelActive follows the variant's rules", () => {
    const side = sidechainWithMainchain();
    assert.equal(side.module.method.isChannelActive(side, MAINCHAIN_ID), true);
    assert.equal(side.module.method.isChannelActive(side, OTHER), true);
    assert.equal(side.module.method.isChannelActive(side, SIDECHAIN_ID), false);
    const main = mainchainFixture();
    registerPartner(main, SIDECHAIN_ID, 'side', validators, 10n, 0);
    assert.equal(main.module.method.isChannelActive(main, SIDECHAIN_ID, HEADER_TIMESTAMP), false);
  });
});
