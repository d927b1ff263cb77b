import '../helpers/klayr.js';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { klayr32ToAddress } from '../../src/lib/crypto/address.js';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { HashOnionStores } from '../../src/modules/random/offchain.js';
import { openDatabases } from '../../src/storage/database.js';
import { runCLI } from '../helpers/cli.js';
import { devnetPassphrase } from '../helpers/devnet.js';
import { klayrCrypto } from '../helpers/klayr.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const PASSWORD = 'migrated validator';
const DISABLED = /Requested method or namespace is disabled in node config/;

interface KeyEntry {
  address: string;
  keyPath: string;
  publicKey: string;
  plain: { generatorKeyPath: string; generatorKey: string; blsKeyPath: string; blsKey: string };
  encrypted: { ciphertext?: string };
}

interface StatusEntry {
  address: string;
  height: number;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
  enabled: boolean;
  generatorKey: string;
  blsKey: string;
}

const cliText = async (...args: string[]): Promise<string> => {
  const { code, stdout, stderr } = await runCLI(...args);
  assert.equal(code, 0, `kestrel ${args.join(' ')} failed: ${stderr}`);
  return stdout;
};

const cli = async (...args: string[]): Promise<unknown> => JSON.parse(await cliText(...args)) as unknown;

/**
 * The validators' steps of the spec's migration procedure, in its order and with its options, run
 * with Kestrel's CLI against a node that serves IPC only and allows the generator, system and
 * random namespaces only.
 */
describe("the validators' steps after a migration, over IPC", () => {
  const dataPath = tempDataPath();
  const ipc = ['--data-path', dataPath];
  let node: KestrelNode;
  let key: KeyEntry;
  const passphrase = devnetPassphrase();
  const onionSeeds: string[] = [];

  before(async () => {
    const config = loadConfig({ dataPath, apiPort: await freePort() });
    config.genesis.blockTime = 2;
    // (a) rpc.modes with ipc, and the generator, system and random namespaces in rpc.allowedMethods
    config.rpc.modes = ['ipc'];
    config.rpc.allowedMethods = ['generator', 'system', 'random'];
    node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    // the old node's status values are heights of a chain this one has reached
    for (let waited = 0; node.chain!.lastBlock().header.height < 3; waited++) {
      assert.ok(waited < 240, 'the node reached height 3 within a minute');
      await sleep(250);
    }
  });
  after(() => node.stop());

  it('(a) the node answers only the allowed namespaces over IPC', async () => {
    const info = (await cli('endpoint:invoke', 'system_getNodeInfo', ...ipc)) as { chainID: string };
    assert.equal(info.chainID, '04000000');
    const denied = await runCLI(
      'endpoint:invoke',
      'token_getBalance',
      JSON.stringify({ address: 'klyguo9kqnea2zsfo3a6qppozsxsg92nuuma3p7ad', tokenID: '0400000000000000' }),
      ...ipc,
    );
    assert.equal(denied.code, 1);
    assert.match(denied.stderr, DISABLED);
  });

  it('(b) keys:create --chainid --output --add-legacy writes the legacy validator keys; keys:import --file-path gives them to the node', async () => {
    const file = join(tempDataPath(), 'keys', 'validator.json');
    const { code, stderr } = await runCLI(
      'keys:create',
      '--passphrase',
      passphrase,
      '--password',
      PASSWORD,
      '--chainid',
      '4',
      '--add-legacy',
      '--output',
      file,
    );
    assert.equal(code, 0, stderr);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const { keys } = JSON.parse(readFileSync(file, 'utf8')) as { keys: KeyEntry[] };
    assert.equal(keys.length, 1, 'with the default count of 1, the legacy pair is the only key');
    key = keys[0]!;
    // Klayr's legacy pair: the account key from sha256(passphrase), also the generator key; BLS at m/12381/134/<chainid>/99999
    const legacy = klayrCrypto.legacy.getPrivateAndPublicKeyFromPassphrase(passphrase) as { publicKey: Buffer };
    assert.equal(key.keyPath, 'legacy');
    assert.equal(key.publicKey, legacy.publicKey.toString('hex'));
    assert.equal(key.address, klayrCrypto.address.getKlayr32AddressFromPublicKey(legacy.publicKey));
    assert.deepEqual(
      [key.plain.generatorKeyPath, key.plain.generatorKey, key.plain.blsKeyPath],
      ['legacy', key.publicKey, 'm/12381/134/4/99999'],
    );
    assert.ok(key.encrypted.ciphertext !== undefined, 'the generator keys are encrypted with the password');

    assert.deepEqual(
      await cli('endpoint:invoke', 'generator_hasKeys', JSON.stringify({ address: key.address }), ...ipc),
      { hasKey: false },
    );
    await cli('keys:import', '--file-path', file, ...ipc);
    assert.deepEqual(
      await cli('endpoint:invoke', 'generator_hasKeys', JSON.stringify({ address: key.address }), ...ipc),
      { hasKey: true },
    );
    const { keys: held } = (await cli('endpoint:invoke', 'generator_getAllKeys', ...ipc)) as {
      keys: { address: string; type: string }[];
    };
    assert.equal(held.find((k) => k.address === key.address)?.type, 'encrypted');
  });

  it("(c) random_setHashOnion with the address only stores a hash onion of Klayr's defaults (count 10,000, distance 1,000) from a random seed", async () => {
    assert.deepEqual(
      await cli('endpoint:invoke', 'random_hasHashOnion', JSON.stringify({ address: key.address }), ...ipc),
      { hasSeed: false, remaining: 0 },
    );
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(
        await cli('endpoint:invoke', 'random_setHashOnion', JSON.stringify({ address: key.address }), ...ipc),
        {},
      );
      const { seeds } = (await cli('endpoint:invoke', 'random_getHashOnionSeeds', ...ipc)) as {
        seeds: { address: string; seed: string; count: number; distance: number }[];
      };
      const own = seeds.find((s) => s.address === key.address)!;
      assert.deepEqual({ count: own.count, distance: own.distance }, { count: 10000, distance: 1000 });
      assert.match(own.seed, /^[0-9a-f]{32}$/);
      onionSeeds.push(own.seed);
    }
    assert.notEqual(onionSeeds[0], onionSeeds[1], 'each call draws a fresh seed');
    assert.deepEqual(
      await cli('endpoint:invoke', 'random_hasHashOnion', JSON.stringify({ address: key.address }), ...ipc),
      { hasSeed: true, remaining: 10000 },
    );
    assert.deepEqual(
      await cli('endpoint:invoke', 'random_getHashOnionUsage', JSON.stringify({ address: key.address }), ...ipc),
      { usedHashOnions: [{ count: 0, height: 0 }], seed: onionSeeds[1] },
    );
  });

  it("(d) generator_setStatus sets the values of the migrator's forgingStatus.json; (e) generator:enable --use-status-value enables generation with them", async () => {
    const forgingStatus = join(tempDataPath(), 'forgingStatus.json');
    writeFileSync(
      forgingStatus,
      JSON.stringify([{ address: key.address, height: 3, maxHeightPrevoted: 0, maxHeightGenerated: 2 }]),
    );
    for (const entry of JSON.parse(readFileSync(forgingStatus, 'utf8')) as {
      address: string;
      height: number;
      maxHeightPrevoted: number;
      maxHeightGenerated: number;
    }[]) {
      const { address, height, maxHeightGenerated, maxHeightPrevoted } = entry;
      assert.deepEqual(
        await cli(
          'endpoint:invoke',
          'generator_setStatus',
          JSON.stringify({ address, height, maxHeightGenerated, maxHeightPrevoted }),
          ...ipc,
        ),
        {},
      );
    }
    const statusOf = async (): Promise<StatusEntry | undefined> =>
      ((await cli('generator:status', ...ipc)) as { info: { status: StatusEntry[] } }).info.status.find(
        (s) => s.address === key.address,
      );
    assert.deepEqual(await statusOf(), {
      address: key.address,
      height: 3,
      maxHeightGenerated: 2,
      maxHeightPrevoted: 0,
      enabled: false,
      generatorKey: '',
      blsKey: '',
    });

    const wrongPassword = await runCLI(
      'generator:enable',
      key.address,
      '--use-status-value',
      '--password',
      'not it',
      ...ipc,
    );
    assert.equal(wrongPassword.code, 1);
    assert.equal((await statusOf())?.enabled, false);

    const both = await runCLI(
      'generator:enable',
      key.address,
      '--use-status-value',
      '--height',
      '3',
      '--password',
      PASSWORD,
      ...ipc,
    );
    assert.equal(both.code, 1);
    assert.match(both.stderr, /--use-status-value cannot be given with --height/);

    assert.equal(
      await cliText('generator:enable', key.address, '--use-status-value', '--password', PASSWORD, ...ipc),
      `Enabled block generation for ${key.address}\n`,
    );
    // enabled with the keys decrypted from the keys file's encrypted part
    assert.deepEqual(await statusOf(), {
      address: key.address,
      height: 3,
      maxHeightGenerated: 2,
      maxHeightPrevoted: 0,
      enabled: true,
      generatorKey: key.plain.generatorKey,
      blsKey: key.plain.blsKey,
    });
  });

  it('zeros are refused as status values once the validator has generated info', async () => {
    const zeros = await runCLI(
      'generator:enable',
      key.address,
      '--height',
      '0',
      '--max-height-generated',
      '0',
      '--max-height-prevoted',
      '0',
      '--password',
      PASSWORD,
      ...ipc,
    );
    assert.equal(zeros.code, 1);
    assert.match(zeros.stderr, /Request does not match last generated information/);
    const lowered = await runCLI(
      'endpoint:invoke',
      'generator_setStatus',
      JSON.stringify({ address: key.address, height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 }),
      ...ipc,
    );
    assert.equal(lowered.code, 1);
    assert.match(lowered.stderr, /would allow contradicting blocks/);
    const { status } = ((await cli('generator:status', ...ipc)) as { info: { status: StatusEntry[] } }).info;
    assert.deepEqual(status.find((s) => s.address === key.address)?.height, 3);
  });

  it("generator:disable takes the password only, as Klayr Core's", async () => {
    assert.equal(
      await cliText('generator:disable', key.address, '--password', PASSWORD, ...ipc),
      `Disabled block generation for ${key.address}\n`,
    );
    const withValues = await runCLI(
      'generator:disable',
      key.address,
      '--use-status-value',
      '--password',
      PASSWORD,
      ...ipc,
    );
    assert.equal(withValues.code, 1);
    assert.match(withValues.stderr, /unknown option '--use-status-value'/);
  });

  it("system_getNodeInfo reports Kestrel's own version (not Klayr Core's 4.0.5) with the protocol's network version", async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const info = (await cli('system:node-info', ...ipc)) as {
      version: string;
      networkVersion: string;
      chainID: string;
      height: number;
    };
    assert.equal(info.version, pkg.version);
    assert.equal(info.networkVersion, node.config.network.version, "the config's network.version (the devnet's 5.1)");
    assert.ok(info.height >= 3);
  });

  it('the stored onion is the one @klayr/cryptography computes from its seed', async () => {
    await node.stop();
    const dbs = openDatabases(dataPath, { readOnly: true });
    try {
      const onion = new HashOnionStores(dbs.generator).getOnion(klayr32ToAddress(key.address))!;
      assert.equal(onion.hashes.at(-1)!.toString('hex'), onionSeeds[1]);
      const expected = (klayrCrypto.utils.hashOnion(Buffer.from(onionSeeds[1]!, 'hex'), 10000, 1000) as Buffer[]).map(
        (h) => h.toString('hex'),
      );
      assert.deepEqual(
        onion.hashes.map((h) => h.toString('hex')),
        expected,
      );
    } finally {
      await dbs.root.close();
    }
  });
});
