import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { devnetPassphrase, devValidators } from '../helpers/devnet.js';
import { klayrCrypto } from '../helpers/klayr.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const apiClient: any = require('@klayr/api-client');
const TOKEN_ID = '0400000000000000';

describe("a wallet's first transaction with the real @klayr/api-client", () => {
  it("transaction.create + transaction.send from the devnet's funded account on a fresh node: the transfer is included", async () => {
    const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
    config.genesis.blockTime = 2;
    const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    const client = await apiClient.createWSClient(`ws://127.0.0.1:${config.rpc.port}/rpc-ws`);
    try {
      const privateKey: Buffer = await klayrCrypto.ed.getPrivateKeyFromPhraseAndPath(
        devnetPassphrase(),
        "m/44'/134'/0'",
      );
      const sender: string = klayrCrypto.address.getKlayr32AddressFromPublicKey(
        klayrCrypto.ed.getPublicKeyFromPrivateKey(privateKey),
      );
      const recipient = devValidators()[7]!.address;
      // the devnet genesis has token accounts but no auth entries: the default account, as Klayr's
      assert.deepEqual(await client.invoke('auth_getAuthAccount', { address: sender }), {
        nonce: '0',
        numberOfSignatures: 0,
        mandatoryKeys: [],
        optionalKeys: [],
      });
      const unseen: string = klayrCrypto.address.getKlayr32AddressFromAddress(Buffer.alloc(20, 7));
      // a module's error reaches @klayr/api-client as the result, as from Klayr Core's ABI
      assert.deepEqual(await client.invoke('auth_getAuthAccount', { address: unseen }), {
        error: { message: `Auth account for address ${unseen} does not exist.` },
      });

      // create asks auth_getAuthAccount for the nonce and fails on any error; sign likewise
      const tx = await client.transaction.create(
        {
          module: 'token',
          command: 'transfer',
          fee: '200000',
          params: { tokenID: TOKEN_ID, amount: '100000000', recipientAddress: recipient, data: 'first transaction' },
        },
        privateKey.toString('hex'),
      );
      assert.equal(tx.nonce, '0');
      const { transactionId } = await client.transaction.send(tx);
      let included: { id: string; nonce: string } | undefined;
      for (let i = 0; i < 40 && included === undefined; i++) {
        included = await client.invoke('chain_getTransactionByID', { id: transactionId }).catch(() => undefined);
        if (included === undefined) await sleep(250);
      }
      assert.ok(included, 'the transfer was included in a block');
      assert.equal(included.nonce, '0');
      assert.equal((await client.invoke('auth_getAuthAccount', { address: sender })).nonce, '1');
      // and the next one, now that the auth entry exists
      const second = await client.transaction.create(
        {
          module: 'token',
          command: 'transfer',
          fee: '200000',
          params: { tokenID: TOKEN_ID, amount: '1', recipientAddress: recipient, data: '' },
        },
        privateKey.toString('hex'),
      );
      assert.equal(second.nonce, '1');
    } finally {
      await client.disconnect();
      await node.stop();
    }
  });
});
