import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/main/config/index.js';
import { BEHIND_CACHE, BEHIND_CHAIN } from '../helpers/behind_chain.js';
import { runCLI, runCLIWith } from '../helpers/cli.js';
import type { KestrelProcess } from '../helpers/kestrel_process.js';
import { spawnKestrel } from '../helpers/kestrel_process.js';
import { klayrCrypto } from '../helpers/klayr.js';
import { keysFile } from '../helpers/klayr_peer_world.js';
import { copyChain, offlineChain, offlineChainConfigFile } from '../helpers/offline_chain.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const apiClient: any = require('@klayr/api-client');

const CHAIN = BEHIND_CHAIN;
const CACHE = BEHIND_CACHE;

const ok = (result: { code: number | null; stderr: string }): void => assert.equal(result.code, 0, result.stderr);
const failed = (result: { code: number | null; stderr: string }, message: RegExp): void => {
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, message);
};

describe("Klayr Core's block:get, transaction:get and endpoint:list against a running node", {
  timeout: 180_000,
}, () => {
  let dataPath = '';
  let node: KestrelProcess | undefined;
  let wsPort = 0;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let client: any;
  before(async () => {
    dataPath = tempDataPath();
    copyChain((await offlineChain(CHAIN, CACHE)).dataPath, dataPath);
    wsPort = await freePort();
    node = spawnKestrel(dataPath, {
      ...offlineChainConfigFile(CHAIN),
      rpc: { modes: ['ipc', 'ws'], host: '127.0.0.1', port: wsPort, allowedMethods: ['*'] },
      network: { host: '127.0.0.1', port: await freePort(), seedPeers: [] },
      generator: { keys: { fromFile: keysFile([]) } },
    });
    const deadline = Date.now() + 60_000;
    while (client === undefined && Date.now() < deadline) {
      client = await apiClient.createWSClient(`ws://127.0.0.1:${wsPort}/rpc-ws`).catch(() => undefined);
      if (client === undefined) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(client !== undefined, node.lines.slice(-10).join('\n'));
  });
  after(async () => {
    await client?.disconnect();
    await node?.stop();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it("block:get prints what Klayr Core's prints (@klayr/api-client's decoded block), by height and by ID; clear errors", async () => {
    for (const height of [0, 1, CHAIN.transferEvery, CHAIN.blocks]) {
      const expected = `${JSON.stringify(await client.block.getByHeight(height))}\n`;
      const byHeight = await runCLI('block:get', String(height), '-d', dataPath);
      ok(byHeight);
      assert.equal(byHeight.stdout, expected, `height ${height}`);
      const id = (JSON.parse(byHeight.stdout) as { header: { id: string } }).header.id;
      const byID = await runCLI('block:get', id.toUpperCase(), '-d', dataPath, '--pretty');
      ok(byID);
      assert.equal(byID.stdout, `${JSON.stringify(await client.block.get(Buffer.from(id, 'hex')), undefined, '  ')}\n`);
    }
    const withTransfers = JSON.parse(
      (await runCLI('block:get', String(CHAIN.transferEvery), '-d', dataPath)).stdout,
    ) as {
      transactions: { params: { amount: string } }[];
    };
    assert.equal(withTransfers.transactions.length, CHAIN.transfersPerBlock);
    assert.equal(typeof withTransfers.transactions[0]?.params.amount, 'string');
    failed(
      await runCLI('block:get', String(CHAIN.blocks + 1), '-d', dataPath),
      /Block with given id or height was not found\./,
    );
    failed(await runCLI('block:get', 'ab'.repeat(32), '-d', dataPath), /Block with given id or height was not found\./);
    failed(
      await runCLI('block:get', 'abc', '-d', dataPath),
      /"abc" is neither a block height \(an integer\) nor a block ID/,
    );
    failed(await runCLI('block:get', '4294967296', '-d', dataPath), /above the largest block height/);
  });

  it("transaction:get prints what Klayr Core's prints (@klayr/api-client's toJSON of the transaction); clear errors", async () => {
    const block = await client.block.getByHeight(CHAIN.transferEvery);
    for (const { id } of block.transactions as { id: string }[]) {
      const printed = await runCLI('transaction:get', id, '-d', dataPath);
      ok(printed);
      const expected = client.transaction.toJSON(await client.transaction.get(Buffer.from(id, 'hex')));
      assert.equal(printed.stdout, `${JSON.stringify(expected)}\n`);
    }
    failed(
      await runCLI('transaction:get', 'cd'.repeat(32), '-d', dataPath),
      new RegExp(`Transaction with id '${'cd'.repeat(32)}' was not found\\.`),
    );
    failed(await runCLI('transaction:get', 'cd', '-d', dataPath), /"cd" is not a transaction ID \(64 hex characters\)/);
  });

  it("endpoint:list lists the modules' endpoints as Klayr Core's: patterns for module and name, --info with the schemas", async () => {
    const { modules } = (await client.invoke('system_getMetadata')) as {
      modules: { name: string; endpoints: { name: string }[] }[];
    };
    const all = modules.flatMap((m) => m.endpoints.map((e) => `${m.name}_${e.name}`));
    const listed = await runCLI('endpoint:list', '-d', dataPath);
    ok(listed);
    assert.deepEqual(JSON.parse(listed.stdout), all);
    const balances = await runCLI('endpoint:list', 'GETBAL', '-m', 'tok', '-d', dataPath);
    assert.deepEqual(JSON.parse(balances.stdout), ['token_getBalance', 'token_getBalances']);
    const info = JSON.parse((await runCLI('endpoint:list', 'getBalances', '-m', 'token', '-i', '-d', dataPath)).stdout);
    const token = modules.find((m) => m.name === 'token')?.endpoints.find((e) => e.name === 'getBalances');
    assert.deepEqual(info, [{ ...token, name: 'token_getBalances' }]);
    failed(await runCLI('endpoint:list', '(', '-d', dataPath), /"\(" is not a valid pattern/);
  });
});

describe("Klayr Core's message:* and config:create, offline", () => {
  const passphrase = 'wear protect skill sentence lift enter wild sting lottery power floor neglect';

  it('message:sign signs as @klayr/cryptography with the legacy key of the passphrase; message:verify checks it; table or JSON', async () => {
    const keys = klayrCrypto.legacy.getPrivateAndPublicKeyFromPassphrase(passphrase);
    const signed = klayrCrypto.ed.signMessageWithPrivateKey('Hello world', keys.privateKey);
    const expected = {
      message: 'Hello world',
      publicKey: signed.publicKey.toString('hex'),
      signature: signed.signature.toString('hex'),
    };
    const json = await runCLI('message:sign', 'Hello world', '--passphrase', passphrase, '--json');
    ok(json);
    assert.deepEqual(JSON.parse(json.stdout), expected);
    const table = await runCLI('message:sign', 'Hello world', '--passphrase', passphrase);
    const row = (key: string, value: string) => `║ ${key.padEnd(10)}│ ${value.padEnd(129)}║`;
    assert.equal(
      table.stdout,
      [
        `╔${'═'.repeat(11)}╤${'═'.repeat(130)}╗`,
        row('message', 'Hello world'),
        `╟${'─'.repeat(11)}┼${'─'.repeat(130)}╢`,
        row('publicKey', expected.publicKey),
        `╟${'─'.repeat(11)}┼${'─'.repeat(130)}╢`,
        row('signature', expected.signature),
        `╚${'═'.repeat(11)}╧${'═'.repeat(130)}╝`,
        '',
      ].join('\n'),
    );
    const file = join(tempDataPath(), 'message.txt');
    writeFileSync(file, 'Hello world');
    const verify = (...args: string[]) =>
      runCLI('message:verify', expected.publicKey, expected.signature, ...args, '--json');
    assert.deepEqual(JSON.parse((await verify('Hello world')).stdout), { verified: true });
    assert.deepEqual(JSON.parse((await verify('--message', `file:${file}`)).stdout), { verified: true });
    assert.deepEqual(JSON.parse((await verify('Hello world!')).stdout), { verified: false });
    failed(await runCLI('message:verify', 'ab', expected.signature, 'x'), /The public key must be 32 bytes/);
    failed(
      await runCLI('message:verify', expected.publicKey, 'xyz', 'x'),
      /The signature must be an even-length hex string/,
    );
    failed(await runCLI('message:sign', '--passphrase', passphrase), /No message was provided/);
  });

  it('message:encrypt and message:decrypt interoperate with @klayr/cryptography, in JSON and stringified form', async () => {
    // Klayr's side with a small argon2 memory (the message carries its parameters): each 2 GiB run takes seconds
    const fromKlayr = await klayrCrypto.encrypt.encryptMessageWithPassword('from Klayr é', 'pw', {
      kdfparams: { memorySize: 1024 },
    });
    assert.equal(fromKlayr.kdfparams.memorySize, 1024);
    const decrypted = await runCLI('message:decrypt', JSON.stringify(fromKlayr), '--password', 'pw');
    ok(decrypted);
    assert.equal(decrypted.stdout, 'from Klayr é\n');
    const stringified = klayrCrypto.encrypt.stringifyEncryptedMessage(fromKlayr);
    assert.equal((await runCLI('message:decrypt', stringified, '--password', 'pw')).stdout, 'from Klayr é\n');
    failed(await runCLI('message:decrypt', stringified, '--password', 'wrong'), /Wrong password/);

    const ours = await runCLI('message:encrypt', 'from Kestrel', '--password', 'pw', '--stringify');
    ok(ours);
    const parsed = klayrCrypto.encrypt.parseEncryptedMessage(ours.stdout.trim());
    assert.equal(await klayrCrypto.encrypt.decryptMessageWithPassword(parsed, 'pw', 'utf8'), 'from Kestrel');
    assert.deepEqual(Object.keys(parsed.kdfparams), ['parallelism', 'iterations', 'memorySize', 'salt']);
    failed(await runCLI('message:decrypt', '{"kdf":', '--password', 'pw'), /The encrypted message is not valid JSON/);
    failed(await runCLI('message:decrypt', 'kdf=argon2id', '--password', 'pw'), /Encrypted message: cipher is missing/);
  });

  it("--output as Klayr Core's: a directory gets <name>.json, a path with an extension is the file; mode 600 and Klayr's line", async () => {
    const dir = join(tempDataPath(), 'out');
    const cases: [string[], string][] = [
      [['passphrase:create', '-o', dir], join(dir, 'passphrase.json')],
      [['passphrase:create', '-o', join(dir, 'mine.json')], join(dir, 'mine.json')],
      [['hash-onion', '--count', '10', '--distance', '5', '-o', dir], join(dir, 'hash-onion.json')],
      [['keys:create', '-p', passphrase, '-n', '-o', join(dir, 'k')], join(dir, 'k', 'keys.json')],
    ];
    for (const [args, file] of cases) {
      const written = await runCLI(...args);
      ok(written);
      assert.equal(written.stdout, `Successfully written data to ${file}\n`, args.join(' '));
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const text = readFileSync(file, 'utf8');
      assert.equal(text, `${JSON.stringify(JSON.parse(text), undefined, ' ')}\n`);
    }
    const onion = JSON.parse(readFileSync(join(dir, 'hash-onion.json'), 'utf8'));
    assert.deepEqual([onion.count, onion.distance, onion.hashes.length], [10, 5, 3]);
  });

  it("config:create writes Klayr Core's default config for the chain ID, which config:show accepts; asks before overwriting", async () => {
    const dir = join(tempDataPath(), 'cfg');
    const created = await runCLI('config:create', '--output', dir, '--chain-id', '04000001', '--label', 'my-app');
    ok(created);
    const file = join(dir, 'config.json');
    assert.equal(created.stdout, `Successfully written data to ${file}\n`);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(written.genesis.chainID, '04000001');
    assert.equal(written.system.dataPath, join(homedir(), '.klayr', 'my-app'));
    assert.equal(loadConfig({ config: file, dataPath: tempDataPath() }).genesis.blockTime, 7);
    failed(
      await runCLIWith({ input: 'no\n' }, 'config:create', '--output', dir, '--chain-id', '04000002'),
      /Operation cancelled, config file already present/,
    );
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).genesis.chainID, '04000001');
    ok(await runCLIWith({ input: 'yes\n' }, 'config:create', '--output', dir, '--chain-id', '04000002'));
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).genesis.chainID, '04000002');
    failed(await runCLI('config:create', '--output', dir, '--chain-id', '0400'), /Invalid chain ID format/);
    failed(await runCLI('config:create', '--output', 'myDir', '--chain-id', '04000000'), /Invalid name/);
    failed(await runCLI('config:create'), /required option '-i, --chain-id <hex>' not specified/);
  });
});
