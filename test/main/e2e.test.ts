import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import { eventKeyPairs } from '../../src/lib/chain/events.js';
import { computeStorePrefix, computeSubstorePrefix, stateSMTKey } from '../../src/lib/state/keys.js';
import { transactionID } from '../../src/lib/transaction/index.js';
import { verifySMTProof } from '../../src/lib/tree/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { devnetPassphrase, devValidators } from '../helpers/devnet.js';
import { klayrChain, klayrCodec, klayrCrypto, klayrTransactions } from '../helpers/klayr.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const apiClient: any = require('@klayr/api-client');
const { ChainAPIClient } = require('@klayr/chain-connector-plugin/dist-node/chain_api_client.js');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const transferSchema: any = require('klayr-framework/dist-node/modules/token/schemas').transferParamsSchema;

const chainID = Buffer.from('04000000', 'hex');
const TOKEN_ID = '0400000000000000';

/** A module's error, which @klayr/api-client resolves with as the result (Klayr Core's ABI answers it so). */
const assertModuleError = async (answer: Promise<unknown>, pattern: RegExp): Promise<void> => {
  const { error } = (await answer) as { error?: { message?: string } };
  assert.match(error?.message ?? 'no error', pattern);
};
describe('end to end: the devnet node with @klayr/api-client and @klayr/transactions', () => {
  it('transfers are included, balances and nonces move, a transfer of more than the balance fails but pays its fee, headers check with @klayr/chain', async () => {
    const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
    config.genesis.blockTime = 2; // a faster devnet for the test; genesis does not depend on it
    const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    const client = await apiClient.createWSClient(`ws://127.0.0.1:${config.rpc.port}/rpc-ws`);
    try {
      // the devnet passphrase account (a validator: it may earn the fees of blocks it generates) funds a fresh account
      const funderKey: Buffer = await klayrCrypto.ed.getPrivateKeyFromPhraseAndPath(
        devnetPassphrase(),
        "m/44'/134'/0'",
      );
      const privateKey: Buffer = await klayrCrypto.ed.getPrivateKeyFromPhraseAndPath(
        'kestrel end to end test account',
        "m/44'/134'/0'",
      );
      const publicKey: Buffer = klayrCrypto.ed.getPublicKeyFromPrivateKey(privateKey);
      const sender = klayrCrypto.address.getKlayr32AddressFromPublicKey(publicKey);
      const recipient = klayrCrypto.address.getKlayr32AddressFromPublicKey(
        Buffer.from(devValidators()[5]!.publicKey, 'hex'),
      );
      const balanceOf = async (address: string) =>
        BigInt((await client.invoke('token_getBalance', { address, tokenID: TOKEN_ID })).availableBalance);
      const nonceOf = async () =>
        client.invoke('auth_getAuthAccount', { address: sender }).then((a: { nonce: string }) => BigInt(a.nonce));
      const newBlocks: string[] = [];
      client.subscribe('chain_newBlock', (data: { blockHeader: { id: string } }) =>
        newBlocks.push(data.blockHeader.id),
      );

      const transfer = (nonce: bigint, amount: bigint, fee = 200000n, from = privateKey, to = recipient) => {
        const tx = {
          module: 'token',
          command: 'transfer',
          nonce,
          fee,
          senderPublicKey: klayrCrypto.ed.getPublicKeyFromPrivateKey(from),
          params: {
            tokenID: Buffer.from(TOKEN_ID, 'hex'),
            amount,
            recipientAddress: klayrCrypto.address.getAddressFromKlayr32Address(to),
            data: 'kestrel',
          },
          signatures: [],
        };
        const signed = klayrTransactions.signTransaction(tx, chainID, from, transferSchema);
        const bytes: Buffer = klayrTransactions.getBytes(signed, transferSchema);
        return { hex: bytes.toString('hex'), id: klayrCrypto.utils.hash(bytes).toString('hex') };
      };
      const included = async (id: string) => {
        for (let i = 0; i < 40; i++) {
          try {
            return await client.invoke('chain_getTransactionByID', { id });
          } catch {
            await sleep(250);
          }
        }
        throw new Error(`transaction ${id} was not included`);
      };
      const heightOf = async (id: string): Promise<number> => {
        for (let h = (await client.invoke('system_getNodeInfo')).height; h > 0; h--) {
          const txs = await client.invoke('chain_getTransactionsByHeight', { height: h });
          if (txs.some((t: { id: string }) => t.id === id)) return h;
        }
        throw new Error('not found');
      };
      const resultEvent = async (id: string) => {
        const events = await client.invoke('chain_getEvents', { height: await heightOf(id) });
        return events.find(
          (e: { name: string; topics: string[] }) => e.name === 'commandExecutionResult' && e.topics[0] === `04${id}`,
        );
      };

      // the new account's initialization fee (5000000) comes out of the transaction's fee
      const funding = transfer(0n, 10000000000n, 5200000n, funderKey, sender);
      await client.invoke('txpool_postTransaction', { transaction: funding.hex });
      await included(funding.id);
      assert.equal(await balanceOf(sender), 10000000000n);

      const nonce0 = await nonceOf();
      assert.equal(nonce0, 0n);
      const before = await balanceOf(sender);
      const recipientBefore = await balanceOf(recipient);
      const ok = transfer(nonce0, 123456789n);
      assert.deepEqual(await client.invoke('txpool_postTransaction', { transaction: ok.hex }), {
        transactionId: ok.id,
      });
      const pooled = await client.invoke('txpool_getTransactionsFromPool', { address: sender });
      assert.ok(pooled.length <= 1);
      await included(ok.id);
      assert.deepEqual(
        await client.invoke('txpool_getTransactionsFromPool', { address: sender }),
        [],
        'a committed transaction leaves the pool',
      );
      assert.ok(
        (await balanceOf(recipient)) >= recipientBefore + 123456789n,
        'the recipient (a validator) got the amount, and maybe fees',
      );
      assert.equal(await balanceOf(sender), before - 123456789n - 200000n);
      assert.equal(await nonceOf(), nonce0 + 1n);
      const okEvent = await resultEvent(ok.id);
      assert.equal(
        klayrCodec.codec.decode(klayrChain.standardEventDataSchema, Buffer.from(okEvent.data, 'hex')).success,
        true,
      );

      // passes verification (amount <= balance) but the locked fee leaves too little: included, fails, fee paid, nonce used
      const balance = await balanceOf(sender);
      const tooMuch = transfer(nonce0 + 1n, balance);
      const dry = await client.invoke('txpool_dryRunTransaction', { transaction: tooMuch.hex });
      assert.equal(dry.result, 0);
      await client.invoke('txpool_postTransaction', { transaction: tooMuch.hex });
      await included(tooMuch.id);
      const failEvent = await resultEvent(tooMuch.id);
      assert.equal(
        klayrCodec.codec.decode(klayrChain.standardEventDataSchema, Buffer.from(failEvent.data, 'hex')).success,
        false,
      );
      assert.equal(await balanceOf(sender), balance - 200000n);
      assert.equal(await nonceOf(), nonce0 + 2n);

      // @klayr/api-client builds and signs a transfer from the metadata Kestrel serves, and sends it
      const meta = await client.invoke('system_getMetadata');
      assert.deepEqual(
        meta.modules.find((m: { name: string }) => m.name === 'token').commands.map((c: { name: string }) => c.name),
        ['transfer', 'transferCrossChain'],
      );
      const built = await client.transaction.create(
        {
          module: 'token',
          command: 'transfer',
          fee: '200000',
          params: { tokenID: TOKEN_ID, amount: '1000', recipientAddress: recipient, data: 'via api-client' },
        },
        privateKey.toString('hex'),
      );
      const sent = await client.transaction.send(built);
      await included(sent.transactionId);
      assert.equal(await nonceOf(), nonce0 + 3n);

      // state and event proofs against the roots in the headers
      const tip = await client.invoke('chain_getLastBlock');
      const userKey = Buffer.concat([
        computeStorePrefix('token'),
        computeSubstorePrefix(0),
        klayrCrypto.address.getAddressFromKlayr32Address(sender),
        Buffer.from(TOKEN_ID, 'hex'),
      ]);
      // state_prove takes state tree keys, as lisk-db's StateDB.prove: the store key's tail hashed
      const treeKey = stateSMTKey(userKey);
      const { proof } = await client.invoke('state_prove', { queryKeys: [treeKey.toString('hex')] });
      assert.equal(proof.queries[0].key, treeKey.toString('hex'), 'the query names the key asked for');
      const stateProof = {
        siblingHashes: proof.siblingHashes.map((h: string) => Buffer.from(h, 'hex')),
        queries: proof.queries.map((q: Record<string, string>) => ({
          key: Buffer.from(q.key!, 'hex'),
          value: Buffer.from(q.value!, 'hex'),
          bitmap: Buffer.from(q.bitmap!, 'hex'),
        })),
      };
      // proved against the tip when asked: the block seen before the call or one committed since
      const since = await client.invoke('chain_getBlocksByHeightBetween', {
        from: tip.header.height,
        to: tip.header.height + 2,
      });
      assert.equal(stateProof.queries[0]!.value.length > 0, true, 'an inclusion proof');
      assert.ok(
        since.some((b: { header: { stateRoot: string } }) =>
          verifySMTProof([treeKey], stateProof, Buffer.from(b.header.stateRoot, 'hex'), 38),
        ),
      );
      assert.ok(!verifySMTProof([treeKey], stateProof, Buffer.alloc(32, 1), 38));
      const eventHeight = await heightOf(ok.id);
      const block = await client.invoke('chain_getBlockByHeight', { height: eventHeight });
      const blockEvents = await client.invoke('chain_getEvents', { height: eventHeight });
      const eventKey = eventKeyPairs({
        ...blockEvents[0],
        data: Buffer.from(blockEvents[0].data, 'hex'),
        topics: blockEvents[0].topics.map((t: string) => Buffer.from(t, 'hex')),
      })[0]!.key;
      const eventProof = await client.invoke('chain_proveEvents', {
        height: eventHeight,
        queries: [eventKey.toString('hex')],
      });
      const asProof = {
        siblingHashes: eventProof.siblingHashes.map((h: string) => Buffer.from(h, 'hex')),
        queries: eventProof.queries.map((q: Record<string, string>) => ({
          key: Buffer.from(q.key!, 'hex'),
          value: Buffer.from(q.value!, 'hex'),
          bitmap: Buffer.from(q.bitmap!, 'hex'),
        })),
      };
      assert.ok(verifySMTProof([eventKey], asProof, Buffer.from(block.header.eventRoot, 'hex'), 12));

      // the devnet config's system.inclusionProofKeys (state tree keys, as lisk-db proves them) are proved after every
      // block (Klayr's chain_getInclusionProofsAtHeight), each query naming its key as configured
      const inclusionKey = Buffer.from(config.system.inclusionProofKeys[0]!, 'hex');
      const inclusion = await client.invoke('chain_getInclusionProofsAtHeight', { height: eventHeight });
      const inclusionProof = {
        siblingHashes: inclusion.proof.siblingHashes.map((h: string) => Buffer.from(h, 'hex')),
        queries: inclusion.proof.queries.map((q: Record<string, string>) => ({
          key: Buffer.from(q.key!, 'hex'),
          value: Buffer.from(q.value!, 'hex'),
          bitmap: Buffer.from(q.bitmap!, 'hex'),
        })),
      };
      assert.equal(inclusionProof.queries.length, 1);
      assert.equal(inclusion.proof.queries[0].key, config.system.inclusionProofKeys[0]);
      assert.ok(verifySMTProof([inclusionKey], inclusionProof, Buffer.from(block.header.stateRoot, 'hex'), 38));
      // the real chain connector's client finds its outbox key for chain 04000001 (the key the devnet config
      // proves) among the queries, as its CCUHandler looks for it (ccu_handler.js _outboxKeyForInclusionProof)
      const connectorClient = new ChainAPIClient({});
      await connectorClient.connect(client);
      const saved = await connectorClient.getSavedInclusionProofAtHeight(eventHeight);
      const { modules } = await client.invoke('system_getMetadata');
      const outboxStore = modules
        .find((m: { name: string }) => m.name === 'interoperability')
        .stores.find((st: { data: { $id: string } }) => st.data.$id === '/modules/interoperability/outbox');
      const outboxKey = Buffer.concat([
        Buffer.from(outboxStore.key, 'hex'),
        klayrCrypto.utils.hash(Buffer.from('04000001', 'hex')),
      ]);
      assert.ok(saved.proof.queries.some((q: { key: Buffer }) => q.key.equals(outboxKey)));

      // hash onions: set (computed in the onion pool) and read back; bad shapes refused
      // a validator outside the active set, so that no block it generates uses the onion meanwhile
      const active = new Set(
        (await client.invoke('chain_getGeneratorList')).list.map((g: { address: string }) => g.address),
      );
      const validatorAddress = devValidators().find((v) => !active.has(v.address))!.address;
      assert.deepEqual(await client.invoke('random_hasHashOnion', { address: validatorAddress }), {
        hasSeed: false,
        remaining: 0,
      });
      await client.invoke('random_setHashOnion', {
        address: validatorAddress,
        seed: 'ab'.repeat(16),
        count: 2000,
        distance: 100,
      });
      assert.deepEqual(await client.invoke('random_hasHashOnion', { address: validatorAddress }), {
        hasSeed: true,
        remaining: 2000,
      });
      const seeds = await client.invoke('random_getHashOnionSeeds');
      assert.deepEqual(
        seeds.seeds.find((x: { address: string }) => x.address === validatorAddress),
        { address: validatorAddress, seed: 'ab'.repeat(16), count: 2000, distance: 100 },
      );
      assert.equal(
        (await client.invoke('random_getHashOnionUsage', { address: validatorAddress })).seed,
        'ab'.repeat(16),
      );
      await assertModuleError(
        client.invoke('random_setHashOnion', { address: validatorAddress, count: 100, distance: 1000 }),
        /greater than distance/,
      );
      await assertModuleError(
        client.invoke('random_setHashOnion', { address: validatorAddress, seed: 'xyz', count: 100 }),
        /hex|must NOT/,
      );
      await assertModuleError(
        client.invoke('random_setHashOnion', { address: validatorAddress, count: 0 }),
        /must be >= 1/,
      );
      assert.deepEqual(await client.invoke('random_hasHashOnion', { address: validatorAddress }), {
        hasSeed: true,
        remaining: 2000,
      });

      // bad input is refused and changes nothing
      await assert.rejects(() => client.invoke('txpool_postTransaction', { transaction: 'zz' }), /format|hex/);
      const badSignature = Buffer.from(transfer(nonce0 + 3n, 1n).hex, 'hex');
      badSignature[badSignature.length - 5]! ^= 1;
      await assert.rejects(
        () => client.invoke('txpool_postTransaction', { transaction: badSignature.toString('hex') }),
        /Failed to validate signature/,
      );
      await assert.rejects(
        () => client.invoke('txpool_postTransaction', { transaction: transfer(nonce0, 1n).hex }),
        /nonce is lower than account nonce/,
      );
      await assert.rejects(
        () => client.invoke('txpool_postTransaction', { transaction: transfer(nonce0 + 3n, 1n, 10n).hex }),
        /Insufficient transaction fee/,
      );

      // deleting the tip (how a switch to a better chain starts): chain_deleteBlock is published, its transfer returns to the pool and is included again
      const deletedIDs: string[] = [];
      client.subscribe('chain_deleteBlock', (data: { blockHeader: { id: string } }) =>
        deletedIDs.push(data.blockHeader.id),
      );
      let deleted: { blockID: string; height: number; transferID: string } | undefined;
      for (let attempt = 0n; attempt < 5n && deleted === undefined; attempt++) {
        const again = transfer(nonce0 + 3n + attempt, 1000n);
        await client.invoke('txpool_postTransaction', { transaction: again.hex });
        await included(again.id);
        // checked and deleted in one turn: no block can land in between
        if (node.chain!.lastBlock().transactions.some((tx) => transactionID(tx).toString('hex') === again.id)) {
          const block = await node.deleteLastBlock();
          deleted = {
            blockID: blockHeaderID(block.header).toString('hex'),
            height: block.header.height,
            transferID: again.id,
          };
        }
      }
      assert.ok(deleted, 'a tip holding the transfer was deleted');
      await assert.rejects(() => client.invoke('chain_getBlockByID', { id: deleted!.blockID }), /does not exist/);
      await included(deleted.transferID);
      assert.deepEqual(deletedIDs, [deleted.blockID]);
      assert.notEqual(
        (await client.invoke('chain_getBlockByHeight', { height: deleted.height })).header.id,
        deleted.blockID,
      );

      // the headers served decode and check with @klayr/chain
      const last = await client.invoke('chain_getLastBlock');
      const header = klayrChain.BlockHeader.fromJSON(last.header);
      assert.equal(header.id.toString('hex'), last.header.id);
      const generator = devValidators().find(
        (v) => v.address === klayrCrypto.address.getKlayr32AddressFromAddress(header.generatorAddress),
      )!;
      header.validateSignature(Buffer.from(generator.plain.generatorKey, 'hex'), chainID);
      assert.ok(newBlocks.length >= 2, 'chain_newBlock events arrived');
      const info = await client.invoke('system_getNodeInfo');
      assert.ok(info.height >= 2);
      const heights = await client.invoke('consensus_getBFTHeights');
      assert.ok(heights.maxHeightPrevoted >= 0);
      assert.equal((await client.invoke('consensus_getBFTParameters', { height: 1 })).validators.length, 51);
      await assert.rejects(
        client.invoke('consensus_getBFTParameters', { height: 0 }),
        /No BFT parameters apply at height 0/,
      );
      assert.equal((await client.invoke('chain_getGeneratorList')).list.length, 51);
      const report = await client.invoke('system_getMetricsReport');
      const heightMetric = report.find((m: { name: string }) => m.name === 'kestrel_chain_height');
      assert.ok(heightMetric.values[0].value >= 2);
      assert.match(
        await client.invoke('system_getMetricsReport', { inString: true }),
        /kestrel_chain_finalized_height \d+/,
      );
    } finally {
      await client.disconnect();
      await node.stop();
    }
  });
});
