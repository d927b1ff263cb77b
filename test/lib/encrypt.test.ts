import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EncryptedMessage } from '../../src/lib/crypto/index.js';
import { decryptWithPassword, encryptWithPassword } from '../../src/lib/crypto/index.js';
import { klayrCrypto } from '../helpers/klayr.js';

// Small argon2 memory keeps the suite fast; one test below uses Klayr's 2 GiB default.
const FAST = { kdfparams: { memorySize: 1024, iterations: 1, parallelism: 4 } };
const secret = Buffer.from('d60a7d1adb5d2fa10833ce35b6ed5ed1d8b023ca27e000668385f94d68f12ff5', 'hex');

describe('password encryption of key material', () => {
  it('a key encrypted by Kestrel (aes-128-gcm, argon2id) decrypts with @klayr/cryptography', async () => {
    const encrypted = await encryptWithPassword(secret, 'correct horse', FAST);
    assert.equal(encrypted.cipher, 'aes-128-gcm');
    assert.equal(encrypted.kdf, 'argon2id');
    const plain: Buffer = await klayrCrypto.encrypt.decryptAES128GCMWithPassword(encrypted, 'correct horse');
    assert.equal(plain.toString('hex'), secret.toString('hex'));
  });

  it('a key encrypted by @klayr/cryptography decrypts with Kestrel', async () => {
    const encrypted = await klayrCrypto.encrypt.encryptAES128GCMWithPassword(secret, 'pw', FAST);
    assert.equal((await decryptWithPassword(encrypted, 'pw')).toString('hex'), secret.toString('hex'));
    const pbkdf2 = await klayrCrypto.encrypt.encryptAES128GCMWithPassword('text', 'pw', {
      kdf: 'PBKDF2',
      kdfparams: { iterations: 1000 },
    });
    assert.equal((await decryptWithPassword(pbkdf2, 'pw')).toString('utf8'), 'text');
  });

  it("with Klayr's default parameters (2 GiB argon2id) both directions interoperate", async () => {
    const ours = await encryptWithPassword(secret, 'pw');
    assert.deepEqual({ ...ours.kdfparams, salt: '' }, { iterations: 1, parallelism: 4, memorySize: 2097023, salt: '' });
    const plain: Buffer = await klayrCrypto.encrypt.decryptAES128GCMWithPassword(ours, 'pw');
    assert.equal(plain.toString('hex'), secret.toString('hex'));
  });

  it("aes-256-gcm (the spec's cipher) round-trips and is refused by Klayr, which knows only aes-128-gcm", async () => {
    const encrypted = await encryptWithPassword(secret, 'pw', { ...FAST, cipher: 'aes-256-gcm' });
    assert.equal(encrypted.cipher, 'aes-256-gcm');
    assert.equal((await decryptWithPassword(encrypted, 'pw')).toString('hex'), secret.toString('hex'));
    await assert.rejects(() => decryptWithPassword(encrypted, 'wrong'), /Wrong password/);
  });

  it('a wrong password is a clear error', async () => {
    const encrypted = await encryptWithPassword(secret, 'pw', FAST);
    await assert.rejects(() => decryptWithPassword(encrypted, 'pW'), /Wrong password/);
  });

  it('malformed encrypted objects are refused with the field named', async () => {
    const good = await encryptWithPassword(secret, 'pw', FAST);
    const cases: [Partial<EncryptedMessage> | Record<string, unknown>, RegExp][] = [
      [{ cipher: 'aes-192-cbc' as never }, /Unsupported cipher/],
      [{ kdf: 'scrypt' as never }, /Unsupported kdf/],
      [{ ciphertext: 'xyz' }, /ciphertext must be an even-length hex/],
      [{ cipherparams: { iv: good.cipherparams.iv, tag: 'abcd' } }, /tag must be 16 bytes/],
      [{ kdfparams: { ...good.kdfparams, memorySize: -1 } }, /memorySize/],
      [{ kdfparams: { ...good.kdfparams, salt: 'zz' } }, /salt/],
      [{ mac: '00' }, /mac must be 32 bytes/],
    ];
    for (const [patch, pattern] of cases) {
      await assert.rejects(() => decryptWithPassword({ ...good, ...patch } as EncryptedMessage, 'pw'), pattern);
    }
    await assert.rejects(() => decryptWithPassword(null as unknown as EncryptedMessage, 'pw'), /must be an object/);
  });
});
