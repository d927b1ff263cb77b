import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { PromptAborted, readNewPassword, readPassphrase, readPassword } from '../../src/main/commands/prompt.js';
import { SecretReader } from '../../src/main/commands/secret_input.js';

/** A terminal as far as the reader can tell: isTTY and setRawMode, whose calls are recorded. */
const fakeTerminal = () => {
  const input = Object.assign(new PassThrough(), { isTTY: true, rawModes: [] as boolean[] });
  const setRawMode = (raw: boolean) => {
    input.rawModes.push(raw);
    return input;
  };
  let written = '';
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString();
      done();
    },
  });
  const reader = new SecretReader(Object.assign(input, { setRawMode }), output);
  return { input, reader, written: () => written };
};

/** Types `keys` one chunk at a time, as a person does, each after the reader had a turn. */
const typeSlowly = async (input: PassThrough, keys: string[]): Promise<void> => {
  for (const k of keys) {
    await new Promise((r) => setImmediate(r));
    input.write(k);
  }
};

const passphrase = entropyToMnemonic(Buffer.alloc(16, 7), wordlist);

describe('hidden prompt on a terminal', () => {
  it('reads a line with the echo off: the output has the question, a * per character and a line end, nothing of the secret', async () => {
    const t = fakeTerminal();
    const line = t.reader.readLine('Please enter password: ');
    await typeSlowly(t.input, [...'s3cret-Pw!', '\r']);
    assert.equal(await line, 's3cret-Pw!');
    assert.equal(t.written(), `Please enter password: ${'*'.repeat(10)}\n`);
    assert.deepEqual(t.input.rawModes, [true, false]);
  });

  it('backspace and Ctrl-U erase, escape sequences (arrow keys) and other control keys are ignored', async () => {
    const t = fakeTerminal();
    const line = t.reader.readLine('Q: ');
    await typeSlowly(t.input, ['ab', 'x', '\u007f', 'c', '\u001b[D', '\u001bOA', '\t', 'd\b', 'é', '\r']);
    assert.equal(await line, 'abcé');
    const shown = t.written().slice('Q: '.length);
    assert.match(shown, /^[*\b ]*\n$/);
    assert.equal(shown.split('*').length - 1, 6, 'one * per character typed (a, b, x, c, d, é)');
    const cleared = t.reader.readLine('Q: ');
    await typeSlowly(t.input, ['wrong', '\u0015', 'right', '\r']);
    assert.equal(await cleared, 'right');
  });

  it('Ctrl-C aborts with PromptAborted (exit code 130) and gives the terminal its echo back', async () => {
    const t = fakeTerminal();
    const line = t.reader.readLine('Q: ');
    await typeSlowly(t.input, ['sec', '\u0003']);
    await assert.rejects(line, (e: unknown) => e instanceof PromptAborted && e.exitCode === 130);
    assert.deepEqual(t.input.rawModes, [true, false]);
    assert.ok(!t.written().includes('sec'));
  });

  it('a new password is asked twice: a mismatch is refused, a match is taken; neither shows the password', async () => {
    const t = fakeTerminal();
    const refused = readNewPassword(undefined, t.reader);
    await typeSlowly(t.input, ['hunter22', '\r', 'hunter23', '\r']);
    await assert.rejects(refused, /^Error: Passwords do not match\.$/);
    assert.equal(t.written(), `Please enter password: ${'*'.repeat(8)}\nPlease re-enter password: ${'*'.repeat(8)}\n`);

    const u = fakeTerminal();
    const taken = readNewPassword(undefined, u.reader);
    u.input.write('hunter22\rhunter22\r'); // pasted: both lines in one chunk
    assert.equal(await taken, 'hunter22');
    assert.ok(!u.written().includes('hunter'));
    assert.deepEqual(u.input.rawModes, [true, false, true, false]);
  });

  it('an empty password (Enter alone) or Ctrl-D is no password', async () => {
    const t = fakeTerminal();
    const empty = readPassword(undefined, {}, t.reader);
    t.input.write('\r');
    await assert.rejects(empty, /No password given \(type it when asked, or give --password\)/);
    const eof = readPassword(undefined, {}, t.reader);
    t.input.write('\u0004');
    await assert.rejects(eof, /No password given/);
  });

  it('a passphrase is checked before it is asked a second time, and the two must match', async () => {
    const t = fakeTerminal();
    const bad = readPassphrase(undefined, { confirm: true }, t.reader);
    t.input.write('not a valid mnemonic\r');
    await assert.rejects(bad, /Invalid passphrase\. The passphrase has 4 words/);
    assert.ok(!t.written().includes('re-enter'));
    assert.ok(!t.written().includes('mnemonic'));

    const u = fakeTerminal();
    const good = readPassphrase(undefined, { confirm: true }, u.reader);
    await typeSlowly(u.input, [passphrase, '\r', passphrase, '\r']);
    assert.equal(await good, passphrase);
    assert.equal(
      u.written(),
      `Please enter passphrase: ${'*'.repeat(passphrase.length)}\nPlease re-enter passphrase: ${'*'.repeat(passphrase.length)}\n`,
    );

    const v = fakeTerminal();
    const mismatch = readPassphrase(undefined, { confirm: true }, v.reader);
    v.input.write(`${passphrase}\r${passphrase.replace(/ \w+$/, ' zoo')}\r`);
    await assert.rejects(mismatch, /^Error: Passphrases do not match\.$/);
  });
});

describe('piped input (not a terminal)', () => {
  const piped = (text: string) => {
    const input = new PassThrough();
    let written = '';
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    input.end(text);
    return { reader: new SecretReader(input, output), written: () => written };
  };

  it('gives the lines in order (\\n or \\r\\n), the last one without its line end, then undefined; prints no prompt', async () => {
    const p = piped('first\nsecond\r\n\u007fthird');
    assert.equal(p.reader.interactive, false);
    assert.equal(await p.reader.readLine('Q: '), 'first');
    assert.equal(await p.reader.readLine('Q: '), 'second');
    assert.equal(await p.reader.readLine('Q: '), '\u007fthird');
    assert.equal(await p.reader.readLine('Q: '), undefined);
    assert.equal(p.written(), '');
  });

  it('a new password takes two lines that must match; input that ends early says what is missing', async () => {
    assert.equal(await readNewPassword(undefined, piped('pw one\npw one\n').reader), 'pw one');
    await assert.rejects(readNewPassword(undefined, piped('pw one\npw two\n').reader), /Passwords do not match/);
    await assert.rejects(
      readNewPassword(undefined, piped('pw one\n').reader),
      /password was not confirmed: standard input ended after it/,
    );
    await assert.rejects(
      readPassword(undefined, {}, piped('').reader),
      /^Error: No password given: standard input ended before it \(give it as a line on standard input, or with --password\)\.$/,
    );
  });

  it('flags win over input; a passphrase flag is checked too; an empty new password flag is refused', async () => {
    const p = piped('from input\n');
    assert.equal(await readPassword('from flag', {}, p.reader), 'from flag');
    assert.equal(await readPassphrase(passphrase, { confirm: true }, p.reader), passphrase);
    await assert.rejects(readPassphrase(` ${passphrase}`, {}, p.reader), /whitespace at character 1\b/);
    await assert.rejects(readNewPassword('', p.reader), /password is empty/);
    assert.equal(await readPassword(undefined, {}, p.reader), 'from input');
  });
});
