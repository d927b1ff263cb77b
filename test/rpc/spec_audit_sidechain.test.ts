// The spec's interoperability sidechain set (node-rpc-interface.md) and getMainchainID of
// klayr-core-methods.md, on a running sidechain node whose genesis block holds the records those
// methods read: the mainchain's account, channel and validators, a terminated chain's state account,
// an escrow of the sidechain's token. Each method is called with exactly the parameters the spec
// lists; its answer is checked against the spec's fields and types.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ESCROWED,
  MAINCHAIN_ID,
  SIDECHAIN_ID,
  SIDECHAIN_TOKEN,
  sidechainAuditGenesis,
  TERMINATED_ID,
} from '../helpers/interop_audit_genesis.js';
import {
  CHAIN_ACCOUNT,
  CHAIN_ACCOUNTS,
  CHAIN_VALIDATORS,
  CHANNEL,
  ESCROWED_AMOUNTS,
  TERMINATED_STATE_ACCOUNT,
} from '../helpers/interop_audit_shapes.js';
import { answerError } from '../helpers/rpc.js';
import type { RPCNode } from '../helpers/rpc_node.js';
import { startRPCNode, useGenesisBlock } from '../helpers/rpc_node.js';

describe('spec audit: interoperability (sidechain set) on a sidechain node', () => {
  let rpc: RPCNode;

  before(async () => {
    rpc = await startRPCNode((config) => {
      delete config.generator;
      config.genesis.chainID = SIDECHAIN_ID;
      useGenesisBlock(config, sidechainAuditGenesis(config));
    });
  });
  after(() => rpc.stop());

  it('interoperability_getChainAccount {chainID}: the chain account', async () => {
    await rpc.shaped('interoperability_getChainAccount', { chainID: MAINCHAIN_ID }, CHAIN_ACCOUNT);
  });

  it('interoperability_getAllChainAccounts {chainID}: {chains} from that chain ID on', async () => {
    const { chains } = (await rpc.shaped(
      'interoperability_getAllChainAccounts',
      { chainID: MAINCHAIN_ID },
      CHAIN_ACCOUNTS,
    )) as {
      chains: unknown[];
    };
    assert.equal(chains.length, 1);
  });

  it('interoperability_getChannel {chainID}: the channel', async () => {
    await rpc.shaped('interoperability_getChannel', { chainID: MAINCHAIN_ID }, CHANNEL);
  });

  it('interoperability_getOwnChainAccount {}: chainID, name and nonce', async () => {
    assert.deepEqual(
      await rpc.shaped('interoperability_getOwnChainAccount', {}, { chainID: 'hex', name: 'string', nonce: 'decimal' }),
      { chainID: SIDECHAIN_ID, name: 'sidechain_audit', nonce: '1' },
    );
  });

  it('interoperability_getTerminatedStateAccount {chainID}: stateRoot, mainchainStateRoot, initialized', async () => {
    await rpc.shaped(
      'interoperability_getTerminatedStateAccount',
      { chainID: TERMINATED_ID },
      TERMINATED_STATE_ACCOUNT,
    );
  });

  it('interoperability_getTerminatedOutboxAccount {chainID}: an error while the chain has none (a sidechain genesis holds none; the shape is checked in spec_audit_interop)', async () => {
    const answer = await rpc.call('interoperability_getTerminatedOutboxAccount', { chainID: TERMINATED_ID });
    assert.match(String(answerError(answer)?.message), /does not exist/);
  });

  it('interoperability_getChainValidators {chainID}: activeValidators of blsKey and bftWeight, certificateThreshold', async () => {
    await rpc.shaped('interoperability_getChainValidators', { chainID: MAINCHAIN_ID }, CHAIN_VALIDATORS);
  });

  it('interoperability_getMainchainID {chainID}: {mainchainID} (klayr-core-methods.md)', async () => {
    assert.deepEqual(
      await rpc.shaped('interoperability_getMainchainID', { chainID: SIDECHAIN_ID }, { mainchainID: 'hex' }),
      { mainchainID: MAINCHAIN_ID },
    );
  });

  it('interoperability_getCCMSchema {}: {schema} (klayr-core-methods.md)', async () => {
    await rpc.shaped('interoperability_getCCMSchema', {}, { schema: 'object' });
  });

  it('token_getEscrowedAmounts {}: escrowChainID, amount and tokenID of each escrow', async () => {
    assert.deepEqual(await rpc.shaped('token_getEscrowedAmounts', {}, ESCROWED_AMOUNTS), {
      escrowedAmounts: [
        { escrowChainID: MAINCHAIN_ID, amount: String(ESCROWED), tokenID: SIDECHAIN_TOKEN.toString('hex') },
      ],
    });
  });

  it('token_hasEscrowAccount {tokenID, escrowChainID}: {exists}', async () => {
    assert.deepEqual(
      await rpc.shaped(
        'token_hasEscrowAccount',
        { tokenID: SIDECHAIN_TOKEN.toString('hex'), escrowChainID: MAINCHAIN_ID },
        { exists: 'boolean' },
      ),
      { exists: true },
    );
  });
});
