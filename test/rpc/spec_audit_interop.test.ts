// The spec's interoperability endpoints (node-rpc-interface.md, both sets) on a running mainchain
// node whose genesis block holds every record they read: an active sidechain (account, channel,
// validators), a terminated chain (state and outbox accounts), the KLY escrow of each. Each method is
// called with exactly the parameters the spec lists; its answer is checked against the spec's fields
// and types. (spec_audit_sidechain runs the sidechain set on a sidechain node.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ESCROWED,
  KLY,
  MAINCHAIN_ID,
  mainchainAuditGenesis,
  SIDECHAIN_ID,
  TERMINATED_ID,
} from '../helpers/interop_audit_genesis.js';
import {
  CHAIN_ACCOUNT,
  CHAIN_ACCOUNTS,
  CHAIN_VALIDATORS,
  CHANNEL,
  ESCROWED_AMOUNTS,
  TERMINATED_OUTBOX_ACCOUNT,
  TERMINATED_STATE_ACCOUNT,
} from '../helpers/interop_audit_shapes.js';
import type { RPCNode } from '../helpers/rpc_node.js';
import { startRPCNode, useGenesisBlock } from '../helpers/rpc_node.js';
import type { Shape } from '../helpers/shape.js';

describe('spec audit: interoperability on a mainchain node with a registered and a terminated chain', () => {
  let rpc: RPCNode;

  before(async () => {
    rpc = await startRPCNode((config) => {
      delete config.generator;
      useGenesisBlock(config, mainchainAuditGenesis(config));
    });
  });
  after(() => rpc.stop());

  describe('mainchain set', () => {
    it('interoperability_getRegistrationFee {} and interoperability_getMinimumMessageFee {}: {fee}', async () => {
      await rpc.shaped('interoperability_getRegistrationFee', {}, { fee: 'decimal' });
      await rpc.shaped('interoperability_getMinimumMessageFee', {}, { fee: 'decimal' });
    });

    it('interoperability_isChainIDAvailable {chainID}: {result}, false for a registered chain', async () => {
      const available: Shape = { result: 'boolean' };
      assert.deepEqual(await rpc.shaped('interoperability_isChainIDAvailable', { chainID: SIDECHAIN_ID }, available), {
        result: false,
      });
      assert.deepEqual(await rpc.shaped('interoperability_isChainIDAvailable', { chainID: '04000009' }, available), {
        result: true,
      });
    });

    it('interoperability_isChainNameAvailable {name}: {result}, false for a registered name', async () => {
      assert.deepEqual(
        await rpc.shaped('interoperability_isChainNameAvailable', { name: 'chain_active' }, { result: 'boolean' }),
        { result: false },
      );
    });
  });

  describe('sidechain set (the base set a mainchain serves too)', () => {
    it('interoperability_getChainAccount {chainID}: the chain account', async () => {
      const account = (await rpc.shaped(
        'interoperability_getChainAccount',
        { chainID: SIDECHAIN_ID },
        CHAIN_ACCOUNT,
      )) as {
        name: string;
      };
      assert.equal(account.name, 'chain_active');
    });

    it('interoperability_getAllChainAccounts {chainID}: every chain account from that chain ID on', async () => {
      const { chains } = (await rpc.shaped(
        'interoperability_getAllChainAccounts',
        { chainID: SIDECHAIN_ID },
        CHAIN_ACCOUNTS,
      )) as { chains: { name: string }[] };
      assert.deepEqual(
        chains.map((c) => c.name),
        ['chain_active', 'chain_terminated'],
      );
      const later = (await rpc.result('interoperability_getAllChainAccounts', { chainID: TERMINATED_ID })) as {
        chains: unknown[];
      };
      assert.equal(later.chains.length, 1);
    });

    it('interoperability_getChannel {chainID}: the channel', async () => {
      await rpc.shaped('interoperability_getChannel', { chainID: SIDECHAIN_ID }, CHANNEL);
    });

    it('interoperability_getOwnChainAccount {}: chainID, name and nonce', async () => {
      assert.deepEqual(
        await rpc.shaped(
          'interoperability_getOwnChainAccount',
          {},
          { chainID: 'hex', name: 'string', nonce: 'decimal' },
        ),
        { chainID: MAINCHAIN_ID, name: 'klayr_mainchain', nonce: '1' },
      );
    });

    it('interoperability_getTerminatedStateAccount {chainID}: stateRoot, mainchainStateRoot, initialized', async () => {
      await rpc.shaped(
        'interoperability_getTerminatedStateAccount',
        { chainID: TERMINATED_ID },
        TERMINATED_STATE_ACCOUNT,
      );
    });

    it('interoperability_getTerminatedOutboxAccount {chainID}: outboxRoot, outboxSize, partnerChainInboxSize', async () => {
      assert.deepEqual(
        await rpc.shaped(
          'interoperability_getTerminatedOutboxAccount',
          { chainID: TERMINATED_ID },
          TERMINATED_OUTBOX_ACCOUNT,
        ),
        { outboxRoot: '0a'.repeat(32), outboxSize: 3, partnerChainInboxSize: 2 },
      );
    });

    it('interoperability_getChainValidators {chainID}: activeValidators of blsKey and bftWeight, certificateThreshold', async () => {
      await rpc.shaped('interoperability_getChainValidators', { chainID: SIDECHAIN_ID }, CHAIN_VALIDATORS);
    });
  });

  describe('token records of the chains', () => {
    it("token_getEscrowedAmounts {}: each sidechain's KLY escrow", async () => {
      assert.deepEqual(await rpc.shaped('token_getEscrowedAmounts', {}, ESCROWED_AMOUNTS), {
        escrowedAmounts: [SIDECHAIN_ID, TERMINATED_ID].map((escrowChainID) => ({
          escrowChainID,
          amount: String(ESCROWED),
          tokenID: KLY.toString('hex'),
        })),
      });
    });

    it('token_hasEscrowAccount {tokenID, escrowChainID}: {exists}', async () => {
      assert.deepEqual(
        await rpc.shaped(
          'token_hasEscrowAccount',
          { tokenID: KLY.toString('hex'), escrowChainID: SIDECHAIN_ID },
          { exists: 'boolean' },
        ),
        { exists: true },
      );
    });
  });
});
