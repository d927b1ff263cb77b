import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { GeneratorKeyStore } from '../../src/engine/generator/key_store.js';
import { encryptWithPassword } from '../../src/lib/crypto/encrypt.js';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { devValidators } from '../helpers/devnet.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const apiClient: any = require('@klayr/api-client');

describe('generator namespace', () => {
  it('keys are set plain or encrypted, generation is enabled with the password and matching generated info, disabled, and refused on bad input', async () => {
    const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
    delete config.generator; // no keys file: keys arrive through generator_setKeys
    const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    const client = await apiClient.createWSClient(`ws://127.0.0.1:${config.rpc.port}/rpc-ws`);
    try {
      const [plain, encrypted] = [devValidators()[3]!, devValidators()[4]!];
      const zero = { height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 };
      assert.deepEqual(await client.invoke('generator_hasKeys', { address: plain.address }), { hasKey: false });
      await assert.rejects(
        () => client.invoke('generator_setStatus', { address: plain.address, ...zero }),
        /is not registered/,
      );
      await assert.rejects(
        () => client.invoke('generator_updateStatus', { address: plain.address, password: '', enable: true, ...zero }),
        /does not have keys registered/,
      );

      const plainData = {
        generatorKey: plain.plain.generatorKey,
        generatorPrivateKey: plain.plain.generatorPrivateKey,
        blsKey: plain.plain.blsKey,
        blsPrivateKey: plain.plain.blsPrivateKey,
      };
      await client.invoke('generator_setKeys', { address: plain.address, type: 'plain', data: plainData });
      assert.deepEqual(await client.invoke('generator_hasKeys', { address: plain.address }), { hasKey: true });
      assert.deepEqual((await client.invoke('generator_getAllKeys')).keys, [
        { address: plain.address, type: 'plain', data: plainData },
      ]);
      await assert.rejects(
        () =>
          client.invoke('generator_setKeys', {
            address: plain.address,
            type: 'plain',
            data: { ...plainData, blsKey: 'zz' },
          }),
        /Property '.data.blsKey' must NOT have fewer than 96 characters/,
      );

      assert.deepEqual(
        await client.invoke('generator_updateStatus', { address: plain.address, password: '', enable: true, ...zero }),
        { address: plain.address, enabled: true },
      );
      const status = (await client.invoke('generator_getStatus')).status.find(
        (s: { address: string }) => s.address === plain.address,
      );
      assert.deepEqual(status, {
        ...zero,
        generatorKey: plain.plain.generatorKey,
        blsKey: plain.plain.blsKey,
        address: plain.address,
        enabled: true,
      });
      // generated info now exists: enabling again must repeat it exactly
      await assert.rejects(
        () =>
          client.invoke('generator_updateStatus', {
            address: plain.address,
            password: '',
            enable: true,
            height: 5,
            maxHeightGenerated: 0,
            maxHeightPrevoted: 0,
          }),
        /not synced|does not match/,
      );
      assert.deepEqual(
        await client.invoke('generator_updateStatus', { address: plain.address, password: '', enable: false, ...zero }),
        { address: plain.address, enabled: false },
      );

      // encrypted at rest: the password is needed to enable
      const message = await encryptWithPassword(
        GeneratorKeyStore.encodePlain({
          generatorKey: Buffer.from(encrypted.plain.generatorKey, 'hex'),
          generatorPrivateKey: Buffer.from(encrypted.plain.generatorPrivateKey, 'hex'),
          blsKey: Buffer.from(encrypted.plain.blsKey, 'hex'),
          blsPrivateKey: Buffer.from(encrypted.plain.blsPrivateKey, 'hex'),
        }),
        'correct horse',
        { kdfparams: { memorySize: 1024 } },
      );
      await client.invoke('generator_setKeys', { address: encrypted.address, type: 'encrypted', data: message });
      await assert.rejects(
        () =>
          client.invoke('generator_updateStatus', {
            address: encrypted.address,
            password: 'wrong',
            enable: true,
            ...zero,
          }),
        /Wrong password/,
      );
      assert.deepEqual(
        await client.invoke('generator_updateStatus', {
          address: encrypted.address,
          password: 'correct horse',
          enable: true,
          ...zero,
        }),
        { address: encrypted.address, enabled: true },
      );
      const stored = (await client.invoke('generator_getAllKeys')).keys.find(
        (k: { address: string }) => k.address === encrypted.address,
      );
      assert.equal(stored.type, 'encrypted');
      assert.equal(stored.data.ciphertext, message.ciphertext);

      await assert.rejects(
        () => client.invoke('generator_estimateSafeStatus', { timeShutdown: 0 }),
        /At least one block after the genesis block must be finalized/,
      );
      await assert.rejects(
        () =>
          client.invoke('generator_setStatus', {
            address: plain.address,
            height: 3,
            maxHeightGenerated: 9,
            maxHeightPrevoted: 0,
          }),
        /cannot be above height/,
      );
    } finally {
      await client.disconnect();
      await node.stop();
    }
  });
});
