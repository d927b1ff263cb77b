import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { GeneratorKeyStore } from '../../src/engine/generator/key_store.js';
import type { EncryptedMessage } from '../../src/lib/crypto/encrypt.js';
import { decryptWithPassword } from '../../src/lib/crypto/encrypt.js';
import { decodeTransaction, transactionID } from '../../src/lib/transaction/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { controllerPidFile } from '../../src/main/lock/controller_pid.js';
import { KestrelNode } from '../../src/main/node.js';
import { cliPath, runCLI } from '../helpers/cli.js';
import { devnetFile, devnetPassphrase, devValidators } from '../helpers/devnet.js';
import { klayrCrypto, klayrTransactions } from '../helpers/klayr.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const apiClient: any = require('@klayr/api-client');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const klayrPassphrase: any = require('@klayr/passphrase');
const run = (...args: string[]) => spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
const runAsync = async (...args: string[]) => {
  const { code, stdout, stderr } = await runCLI(...args);
  return { status: code, stdout, stderr };
};

describe('validator CLI', () => {
  it("keys:create reproduces Klayr Core's devnet key file (103 keys, chain id 4) from its passphrase; encrypted keys decrypt to the plain ones", async () => {
    const passphrase = devnetPassphrase();
    const out = run('keys:create', '--passphrase', passphrase, '--no-encrypt', '--count', '103', '--chainid', '4');
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), JSON.parse(readFileSync(devnetFile('dev-validators.json'), 'utf8')));
    const file = join(tempDataPath(), 'keys', 'validator.json');
    const encrypted = run(
      'keys:create',
      '--passphrase',
      passphrase,
      '--password',
      'kestrel',
      '--offset',
      '7',
      '--chainid',
      '4',
      '--output',
      file,
    );
    assert.equal(encrypted.status, 0, encrypted.stderr);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const [entry] = (
      JSON.parse(readFileSync(file, 'utf8')) as {
        keys: { address: string; plain: Record<string, string>; encrypted: EncryptedMessage }[];
      }
    ).keys;
    assert.equal(entry!.address, devValidators()[7]!.address);
    assert.equal(entry!.encrypted.cipher, 'aes-128-gcm');
    const decrypted = GeneratorKeyStore.decodePlain(await decryptWithPassword(entry!.encrypted, 'kestrel'));
    assert.equal(decrypted.generatorPrivateKey.toString('hex'), entry!.plain.generatorPrivateKey);
    assert.equal(decrypted.blsPrivateKey.toString('hex'), entry!.plain.blsPrivateKey);
    assert.equal(run('keys:create', '--passphrase', passphrase, '--no-encrypt', '--count', '-1').status, 1);
  });

  it('keys:encrypt adds encrypted keys that decrypt to the plain ones; passphrase:encrypt and passphrase:decrypt round-trip', async () => {
    const file = join(tempDataPath(), 'plain.json');
    assert.equal(
      run(
        'keys:create',
        '--passphrase',
        devnetPassphrase(),
        '--no-encrypt',
        '--offset',
        '2',
        '--chainid',
        '4',
        '--output',
        file,
      ).status,
      0,
    );
    const encrypted = run('keys:encrypt', '--file-path', file, '--password', 'pw');
    assert.equal(encrypted.status, 0, encrypted.stderr);
    const [entry] = (
      JSON.parse(readFileSync(file, 'utf8')) as {
        keys: { plain: Record<string, string>; encrypted: EncryptedMessage }[];
      }
    ).keys;
    assert.equal(
      GeneratorKeyStore.decodePlain(await decryptWithPassword(entry!.encrypted, 'pw')).blsPrivateKey.toString('hex'),
      entry!.plain.blsPrivateKey,
    );
    const out = run(
      'passphrase:encrypt',
      '--passphrase',
      devnetPassphrase(),
      '--password',
      'pw',
      '--output-public-key',
    );
    assert.equal(out.status, 0, out.stderr);
    const secretFile = join(tempDataPath(), 'secret.json');
    writeFileSync(secretFile, out.stdout);
    // Klayr Core's --output-public-key is the passphrase's legacy key (klayr-commander utils/commons.js getKeys)
    assert.equal(
      JSON.parse(out.stdout).publicKey,
      klayrCrypto.legacy.getPrivateAndPublicKeyFromPassphrase(devnetPassphrase()).publicKey.toString('hex'),
    );
    assert.equal(
      JSON.parse(run('passphrase:decrypt', '--file-path', secretFile, '--password', 'pw').stdout),
      devnetPassphrase(),
    );
  });

  it('transaction:create --offline equals @klayr/transactions signing the same transfer; transaction:sign re-signs; bad input exits 1', async () => {
    const passphrase = devnetPassphrase();
    const recipient = devValidators()[5]!.address;
    const params = { tokenID: '0400000000000000', amount: '12345', recipientAddress: recipient, data: 'cli' };
    const out = run(
      'transaction:create',
      'token',
      'transfer',
      '200000',
      '--params',
      JSON.stringify(params),
      '--passphrase',
      passphrase,
      '--nonce',
      '3',
      '--offline',
      '--chain-id',
      '04000000',
    );
    assert.equal(out.status, 0, out.stderr);
    const privateKey: Buffer = await klayrCrypto.ed.getPrivateKeyFromPhraseAndPath(passphrase, "m/44'/134'/0'");
    const schema = require('klayr-framework/dist-node/modules/token/schemas').transferParamsSchema;
    const tx = {
      module: 'token',
      command: 'transfer',
      nonce: 3n,
      fee: 200000n,
      senderPublicKey: klayrCrypto.ed.getPublicKeyFromPrivateKey(privateKey),
      params: {
        tokenID: Buffer.from(params.tokenID, 'hex'),
        amount: 12345n,
        recipientAddress: klayrCrypto.address.getAddressFromKlayr32Address(recipient),
        data: 'cli',
      },
      signatures: [],
    };
    const expected = (
      klayrTransactions.getBytes(
        klayrTransactions.signTransaction(tx, Buffer.from('04000000', 'hex'), privateKey, schema),
        schema,
      ) as Buffer
    ).toString('hex');
    assert.equal(JSON.parse(out.stdout).transaction, expected);
    const offline = ['--offline', '--chain-id', '04000000'];
    const resigned = run('transaction:sign', expected, '--passphrase', passphrase, ...offline);
    assert.equal(JSON.parse(resigned.stdout).transaction, expected);
    // as Klayr Core's: an unsigned transaction (--no-signature) signed afterwards is the same transaction
    const unsigned = run(
      'transaction:create',
      'token',
      'transfer',
      '200000',
      '-a',
      JSON.stringify(params),
      '--no-signature',
      '-s',
      tx.senderPublicKey.toString('hex'),
      '--nonce',
      '3',
      ...offline,
    );
    assert.equal(unsigned.status, 0, unsigned.stderr);
    const signedLater = run(
      'transaction:sign',
      JSON.parse(unsigned.stdout).transaction,
      '-p',
      passphrase,
      ...offline,
      '--json',
    );
    const [hexLine, jsonLine] = signedLater.stdout.trim().split('\n');
    assert.equal(JSON.parse(hexLine!).transaction, expected);
    const klayrJSON = klayrTransactions.signTransaction(tx, Buffer.from('04000000', 'hex'), privateKey, schema);
    assert.deepEqual(JSON.parse(jsonLine!).transaction.params, params);
    assert.equal(JSON.parse(jsonLine!).transaction.id, klayrJSON.id.toString('hex'));
    assert.deepEqual(Object.keys(JSON.parse(jsonLine!).transaction), [
      'module',
      'command',
      'nonce',
      'fee',
      'senderPublicKey',
      'params',
      'signatures',
      'id',
    ]);
    // another passphrase signs too (a multisignature member may): the signature is then not the sender's
    const otherSigned = run(
      'transaction:sign',
      expected,
      '-p',
      klayrPassphrase.Mnemonic.generateMnemonic(),
      ...offline,
    );
    assert.notEqual(JSON.parse(otherSigned.stdout).transaction, expected);
    assert.match(
      run('transaction:create', 'token', 'nope', '1', '--passphrase', passphrase, '--nonce', '0', ...offline).stderr,
      /token:nope is not registered/,
    );
    assert.match(
      run('transaction:sign', expected, '--passphrase', passphrase, '--offline').stderr,
      /All of the following must be provided when using --offline: --chain-id/,
    );
    // as Klayr Core's: --offline and a node to reach exclude each other
    assert.match(
      run('transaction:sign', expected, '--passphrase', passphrase, ...offline, '-d', '/tmp/kestrel-x').stderr,
      /--data-path=\/tmp\/kestrel-x cannot also be provided when using --offline/,
    );
    assert.match(
      run(
        'transaction:create',
        'token',
        'transfer',
        '1',
        '--params',
        '{"amount":"x"}',
        '--passphrase',
        passphrase,
        '--nonce',
        '0',
        ...offline,
      ).stderr,
      /Error/,
    );
    assert.match(
      run(
        'transaction:create',
        'token',
        'transfer',
        '1',
        '--params',
        JSON.stringify(params),
        '--passphrase',
        passphrase,
        '--offline',
      ).stderr,
      /All of the following must be provided when using --offline: --chain-id, --nonce/,
    );
  });

  it('over IPC with allowedMethods ["generator","system","random"] (the spec\'s validator setup): allowed commands work, others fail with the disabled-namespace message', async () => {
    const dataPath = tempDataPath();
    const config = loadConfig({ dataPath, apiPort: await freePort() });
    config.rpc.modes = ['ipc'];
    config.rpc.allowedMethods = ['generator', 'system', 'random'];
    delete config.generator;
    const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    try {
      // Klayr Core's CLI looks for this file before it connects; @klayr/api-client's IPC client is how it then connects
      assert.equal(readFileSync(controllerPidFile(dataPath), 'utf8'), String(process.pid));
      const ipc = await apiClient.createIPCClient(dataPath);
      assert.equal((await ipc.node.getNodeInfo()).chainID, '04000000');
      await ipc.disconnect();
      const info = await runAsync('system:node-info', '--data-path', dataPath);
      assert.equal(info.status, 0, info.stderr);
      assert.equal(JSON.parse(info.stdout).chainID, '04000000');
      const status = await runAsync('generator:status', '--data-path', dataPath);
      assert.deepEqual(JSON.parse(status.stdout), { info: { status: [] } });
      const onion = await runAsync(
        'endpoint:invoke',
        'random_setHashOnion',
        JSON.stringify({ address: devValidators()[30]!.address, count: 100, distance: 10 }),
        '--data-path',
        dataPath,
      );
      assert.equal(onion.status, 0, onion.stderr);
      const denied = await runAsync(
        'endpoint:invoke',
        'token_getBalances',
        JSON.stringify({ address: devValidators()[30]!.address }),
        '--data-path',
        dataPath,
      );
      assert.equal(denied.status, 1);
      assert.match(denied.stderr, /Requested method or namespace is disabled in node config/);
    } finally {
      await node.stop();
    }
    assert.equal(existsSync(controllerPidFile(dataPath)), false);
  });

  it('passphrase:create prints a fresh 24-word mnemonic that @klayr/passphrase validates; --output writes it with mode 600', () => {
    const out = run('passphrase:create');
    assert.equal(out.status, 0, out.stderr);
    const { passphrase } = JSON.parse(out.stdout) as { passphrase: string };
    assert.equal(passphrase.split(' ').length, 24);
    assert.equal(klayrPassphrase.Mnemonic.validateMnemonic(passphrase), true);
    assert.notEqual(JSON.parse(run('passphrase:create').stdout).passphrase, passphrase);
    const file = join(tempDataPath(), 'secret', 'passphrase.json');
    assert.equal(run('passphrase:create', '--output', file).status, 0);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal((JSON.parse(readFileSync(file, 'utf8')) as { passphrase: string }).passphrase.split(' ').length, 24);
  });

  it('hash-onion prints { count, distance, hashes } equal to @klayr/cryptography; bad shapes exit 1 with a message', () => {
    const seed = 'cd'.repeat(16);
    const out = run('hash-onion', '--count', '3000', '--distance', '100', '--seed', seed);
    assert.equal(out.status, 0, out.stderr);
    const onion = JSON.parse(out.stdout) as { count: number; distance: number; hashes: string[] };
    assert.deepEqual(onion, {
      count: 3000,
      distance: 100,
      hashes: (klayrCrypto.utils.hashOnion(Buffer.from(seed, 'hex'), 3000, 100) as Buffer[]).map((h) =>
        h.toString('hex'),
      ),
    });
    const bad = run('hash-onion', '--count', '100', '--distance', '1000');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /Count must be greater than distance/);
    assert.match(run('hash-onion', '--count', '0').stderr, /positive integer/);
    assert.match(run('hash-onion', '--seed', 'xyz').stderr, /seed/);
  });

  it('system:node-info, generator:enable --use-status-value, generator:status and generator:disable against a running node; clear errors', async () => {
    const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
    delete config.generator;
    const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    const ws = `ws://127.0.0.1:${config.rpc.port}/rpc-ws`;
    const client = await apiClient.createWSClient(ws);
    try {
      const info = await runAsync('system:node-info', '--ws', ws);
      assert.equal(info.status, 0, info.stderr);
      assert.equal(JSON.parse(info.stdout).chainID, '04000000');
      const validator = devValidators()[6]!;
      const { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } = validator.plain;
      await client.invoke('generator_setKeys', {
        address: validator.address,
        type: 'plain',
        data: { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey },
      });
      // as Klayr Core: --use-status-value needs the status the node holds (generator_setStatus)
      const noStatus = await runAsync(
        'generator:enable',
        validator.address,
        '--use-status-value',
        '--password',
        'unused',
        '--ws',
        ws,
      );
      assert.equal(noStatus.status, 1);
      assert.match(noStatus.stderr, new RegExp(`Status for ${validator.address} not found in the node`));
      await client.invoke('generator_setStatus', {
        address: validator.address,
        height: 0,
        maxHeightGenerated: 0,
        maxHeightPrevoted: 0,
      });
      const enabled = await runAsync(
        'generator:enable',
        validator.address,
        '--use-status-value',
        '--password',
        'unused',
        '--ws',
        ws,
      );
      assert.equal(enabled.status, 0, enabled.stderr);
      assert.equal(enabled.stdout, `Enabled block generation for ${validator.address}\n`);
      const status = await runAsync('generator:status', '--ws', ws);
      assert.equal(
        JSON.parse(status.stdout).info.status.find((s: { address: string }) => s.address === validator.address).enabled,
        true,
      );
      const disabled = await runAsync('generator:disable', validator.address, '--password', 'unused', '--ws', ws);
      assert.equal(disabled.stdout, `Disabled block generation for ${validator.address}\n`);
      const unknown = await runAsync(
        'generator:enable',
        devValidators()[7]!.address,
        '--height',
        '0',
        '--max-height-generated',
        '0',
        '--max-height-prevoted',
        '0',
        '--password',
        'x',
        '--ws',
        ws,
      );
      assert.equal(unknown.status, 1);
      assert.match(unknown.stderr, /does not have keys registered/);
      const missing = await runAsync('generator:enable', validator.address, '--password', 'x', '--ws', ws);
      assert.match(missing.stderr, /--use-status-value, or all of --height/);

      // keys:import of a keys:create file (plain keys), then keys:export of what the node holds
      const keysFile = join(tempDataPath(), 'keys.json');
      assert.equal(
        run(
          'keys:create',
          '--passphrase',
          devnetPassphrase(),
          '--no-encrypt',
          '--count',
          '2',
          '--offset',
          '20',
          '--chainid',
          '4',
          '--output',
          keysFile,
        ).status,
        0,
      );
      const imported = await runAsync('keys:import', '--file-path', keysFile, '--ws', ws);
      assert.equal(imported.status, 0, imported.stderr);
      assert.deepEqual(JSON.parse(imported.stdout).imported, [
        devValidators()[20]!.address,
        devValidators()[21]!.address,
      ]);
      assert.deepEqual(await client.invoke('generator_hasKeys', { address: devValidators()[21]!.address }), {
        hasKey: true,
      });
      const exportFile = join(tempDataPath(), 'export.json');
      assert.equal((await runAsync('keys:export', '--output', exportFile, '--ws', ws)).status, 0);
      const exported = JSON.parse(readFileSync(exportFile, 'utf8')) as {
        keys: { address: string; plain: { blsKey: string } }[];
      };
      assert.equal(
        exported.keys.find((k) => k.address === devValidators()[20]!.address)!.plain.blsKey,
        devValidators()[20]!.plain.blsKey,
      );
      // transaction:create asks the node for the nonce; transaction:send posts it
      const created = await runAsync(
        'transaction:create',
        'token',
        'transfer',
        '300000',
        '--params',
        JSON.stringify({
          tokenID: '0400000000000000',
          amount: '1',
          recipientAddress: devValidators()[9]!.address,
          data: '',
        }),
        '--passphrase',
        devnetPassphrase(),
        '--ws',
        ws,
      );
      assert.equal(created.status, 0, created.stderr);
      const sent = await runAsync('transaction:send', JSON.parse(created.stdout).transaction, '--ws', ws);
      assert.equal(sent.status, 0, sent.stderr);
      const sentID = transactionID(decodeTransaction(Buffer.from(JSON.parse(created.stdout).transaction, 'hex')));
      assert.equal(sent.stdout, `Transaction with id: '${sentID.toString('hex')}' received by node.\n`);
      assert.match(
        (await runAsync('transaction:send', 'zz', '--ws', ws)).stderr,
        /The transaction must be provided as a encoded hex string\./,
      );
      // generator:export writes keys and generated info; generator:import sets the generated info back
      const infoFile = join(tempDataPath(), 'generator_info.json');
      assert.equal((await runAsync('generator:export', '--output', infoFile, '--ws', ws)).status, 0);
      const exportedInfo = JSON.parse(readFileSync(infoFile, 'utf8')) as {
        keys: { address: string }[];
        generatorInfo: { address: string; height: number }[];
      };
      assert.ok(exportedInfo.keys.some((k) => k.address === validator.address));
      const mine = exportedInfo.generatorInfo.find((g) => g.address === validator.address)!;
      writeFileSync(
        infoFile,
        JSON.stringify({ ...exportedInfo, generatorInfo: [{ ...mine, height: mine.height + 10 }] }),
      );
      const importedInfo = await runAsync('generator:import', '--file-path', infoFile, '--ws', ws);
      assert.equal(importedInfo.status, 0, importedInfo.stderr);
      const afterImport = (await client.invoke('generator_getStatus')).status.find(
        (s: { address: string }) => s.address === validator.address,
      );
      assert.equal(afterImport.height, mine.height + 10);
      // lowering it again would allow contradicting blocks
      writeFileSync(infoFile, JSON.stringify({ ...exportedInfo, generatorInfo: [mine] }));
      assert.match(
        (await runAsync('generator:import', '--file-path', infoFile, '--ws', ws)).stderr,
        /would allow contradicting blocks/,
      );
      const badFile = join(tempDataPath(), 'bad.json');
      writeFileSync(badFile, '{"nope": 1}');
      assert.match((await runAsync('keys:import', '--file-path', badFile, '--ws', ws)).stderr, /expected \{ "keys"/);
    } finally {
      await client.disconnect();
      await node.stop();
    }
    const down = await runAsync('system:node-info', '--ws', ws);
    assert.equal(down.status, 1);
    assert.ok(down.stderr.length > 0);
  });
});
