import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import type { EncryptedMessage } from '../../src/lib/crypto/encrypt.js';
import { decryptWithPassword } from '../../src/lib/crypto/encrypt.js';
import { cliPath } from '../helpers/cli.js';

/** The CLI with `stdin` piped in (not a terminal), as a script runs it. */
const run = (stdin: string, ...args: string[]) =>
  spawnSync(process.execPath, [cliPath, ...args], { input: stdin, encoding: 'utf8', timeout: 60_000 });
const lines = (...l: string[]): string => `${l.join('\n')}\n`;

const passphrase = entropyToMnemonic(Buffer.alloc(32, 0x5a), wordlist);
const other = entropyToMnemonic(Buffer.alloc(16, 0x11), wordlist);
const address = 'klyycz7hvr8yfu74bcwxy2n4mopfmjancgdvxq8xz';
const transferParams = JSON.stringify({
  tokenID: '0400000000000000',
  amount: '1',
  recipientAddress: address,
  data: '',
});
const dir = mkdtempSync(join(tmpdir(), 'kestrel-secrets-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface KeysFile {
  keys: { address: string; publicKey: string; encrypted: EncryptedMessage }[];
}

describe('CLI secrets from piped standard input', () => {
  it('keys:create reads passphrase, passphrase again, password, password again as lines; the keys are those of the passphrase', async () => {
    const out = run(lines(passphrase, passphrase, 'pipe password', 'pipe password'), 'keys:create');
    assert.equal(out.status, 0, out.stderr);
    assert.equal(out.stderr, '', 'no prompt is printed for piped input');
    const { keys } = JSON.parse(out.stdout) as KeysFile;
    const plain = JSON.parse(run('', 'keys:create', '-p', passphrase, '-n').stdout) as KeysFile;
    assert.equal(keys[0]?.publicKey, plain.keys[0]?.publicKey);
    const encrypted = keys[0]?.encrypted;
    assert.ok(encrypted !== undefined);
    assert.ok((await decryptWithPassword(encrypted, 'pipe password')).length > 0);
  });

  it('keys:create refuses a password not repeated the same, or not repeated at all, and writes no file', () => {
    const file = join(dir, 'mismatch', 'keys.json');
    const mismatch = run(lines(passphrase, passphrase, 'one', 'two'), 'keys:create', '-o', file);
    assert.equal(mismatch.status, 1);
    assert.match(mismatch.stderr, /^Error: Passwords do not match\.\n$/);
    const once = run(lines(passphrase, passphrase, 'one'), 'keys:create', '-o', file);
    assert.equal(once.status, 1);
    assert.match(once.stderr, /password was not confirmed: standard input ended after it/);
    const passphraseTwice = run(lines(passphrase, other, 'one', 'one'), 'keys:create', '-o', file);
    assert.match(passphraseTwice.stderr, /^Error: Passphrases do not match\.\n$/);
    assert.equal(existsSync(file), false);
  });

  it('every bad passphrase, by flag or on standard input, gives the clear error, exits 1 and writes no file', () => {
    const words = passphrase.split(' ');
    const bad: [string, RegExp][] = [
      ['', /The passphrase is empty/],
      [
        'not a valid mnemonic',
        /has 4 words; a passphrase has 12, 15, 18, 21 or 24\. The passphrase's words 1, 2 and 4 are not in the BIP-39 English word list/,
      ],
      [` ${passphrase}`, /whitespace at character 1\. Words are separated by single spaces/],
      [passphrase.replace(' ', '  '), /whitespace at character \d+\. Words/],
      [
        `${(passphrase[0] ?? '').toUpperCase()}${passphrase.slice(1)}`,
        /1 uppercase character \(character 1\); a passphrase is lowercase/,
      ],
      [[...words.slice(0, -1), words.at(-1) === 'zoo' ? 'abandon' : 'zoo'].join(' '), /checksum does not match/],
      [
        [...words.slice(0, 3), 'kestrelx', ...words.slice(4)].join(' '),
        /word 4 is not in the BIP-39 English word list/,
      ],
      [`${passphrase} ${words[0]}`, /has 25 words/],
    ];
    const file = join(dir, 'bad', 'keys.json');
    for (const [p, message] of bad) {
      const byFlag = run('', 'keys:create', '-p', p, '-w', 'pw', '-o', file);
      assert.equal(byFlag.status, 1, p);
      assert.match(byFlag.stderr, /^Error: Invalid passphrase\. /, p);
      assert.match(byFlag.stderr, message, p);
      const typed = run(lines(p, p, 'pw', 'pw'), 'keys:create', '-o', file);
      assert.equal(typed.status, 1, p);
      // an empty line is no passphrase at all
      assert.match(typed.stderr, p === '' ? /No passphrase given/ : message, p);
      assert.equal(existsSync(file), false, p);
    }
    const create = ['transaction:create', 'token', 'transfer', '100000', '--params', transferParams];
    const offline = ['--nonce', '0', '--offline', '--chain-id', '04000000'];
    const tx = run(lines(passphrase), ...create, ...offline);
    assert.equal(tx.status, 0, tx.stderr);
    const hex = (JSON.parse(tx.stdout) as { transaction: string }).transaction;
    assert.match(run(lines(passphrase), 'transaction:sign', hex, ...offline.slice(2)).stdout, new RegExp(hex));
    assert.match(
      run('', 'transaction:sign', hex, '-p', 'wrong words', ...offline.slice(2)).stderr,
      /Invalid passphrase\. The passphrase has 2 words/,
    );
    assert.match(run(lines(`${passphrase} `), ...create, ...offline).stderr, /Invalid passphrase/);
    assert.match(run(lines('NOT valid'), 'passphrase:encrypt').stderr, /Invalid passphrase\..*uppercase/);
  });

  it('passphrase:encrypt (passphrase twice, password twice) and passphrase:decrypt (password once) round-trip', () => {
    const encrypted = run(lines(passphrase, passphrase, 'pw', 'pw'), 'passphrase:encrypt');
    assert.equal(encrypted.status, 0, encrypted.stderr);
    const file = join(dir, 'secret.json');
    writeFileSync(file, encrypted.stdout);
    const decrypted = run(lines('pw'), 'passphrase:decrypt', '-f', file);
    assert.equal(decrypted.status, 0, decrypted.stderr);
    assert.equal(JSON.parse(decrypted.stdout), passphrase);
  });

  it('keys:encrypt asks for the new password twice and leaves the file as it was on a mismatch', () => {
    const file = join(dir, 'plain.json');
    assert.equal(run('', 'keys:create', '-p', passphrase, '-n', '-o', file).status, 0);
    const before = readFileSync(file, 'utf8');
    const refused = run(lines('a', 'b'), 'keys:encrypt', '-f', file);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /Passwords do not match/);
    assert.equal(readFileSync(file, 'utf8'), before);
    assert.match(run('', 'keys:encrypt', '-f', file, '-w', '').stderr, /password is empty/);
  });

  it('with nothing on standard input, the error names what is missing and how to give it', () => {
    const generator = run('', 'generator:disable', address, '--ws', 'ws://127.0.0.1:9/rpc-ws');
    assert.equal(generator.status, 1);
    assert.equal(
      generator.stderr,
      'Error: No password given: standard input ended before it (give it as a line on standard input, or with --password).\n',
    );
    assert.match(run('', 'keys:create', '-n').stderr, /No passphrase given: standard input ended before it/);
    // a missing flag is told before any secret is asked for
    assert.match(
      run('', 'transaction:create', 'token', 'transfer', '1', '--params', transferParams, '--offline').stderr,
      /^Error: All of the following must be provided when using --offline: --chain-id, --nonce\n$/,
    );
  });
});
