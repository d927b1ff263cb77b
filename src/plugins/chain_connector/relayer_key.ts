import { ED25519_PRIVATE_KEY_LENGTH } from '../../lib/crypto/ed25519.js';
import type { Cipher, EncryptedMessage, KDF } from '../../lib/crypto/encrypt.js';
import { ARGON2_DEFAULTS, decryptWithPassword } from '../../lib/crypto/encrypt.js';
import { required } from '../../lib/required.js';

const ONE_VALUE = 'Encrypted message to parse must have only one value per key.';

const option = (value: string | null, fallback: number, name: string): number => {
  if (value === null || value === '') return fallback;
  const n = Number.parseInt(value, 10);
  if (Number.isNaN(n)) throw new Error(`Could not parse option ${name}.`);
  return n;
};

/** Klayr's stringified encrypted message (`kdf=argon2id&cipher=aes-128-gcm&…`, @klayr/cryptography parseEncryptedMessage). */
export const parseEncryptedMessage = (text: string): EncryptedMessage => {
  const query = new URLSearchParams(text);
  const one = (name: string, optional = false): string | null => {
    const values = query.getAll(name);
    if (values.length > 1 || (values.length === 0 && !optional)) throw new Error(ONE_VALUE);
    return values[0] ?? null;
  };
  const [kdf, cipher, ciphertext, iv, tag, salt, version, mac] = [
    'kdf',
    'cipher',
    'ciphertext',
    'iv',
    'tag',
    'salt',
    'version',
    'mac',
  ].map((n) => required(one(n), `The ${n} of the encrypted message`));
  if (kdf !== 'argon2id' && kdf !== 'PBKDF2') throw new Error('KDF must be one of argon2id,PBKDF2');
  if (cipher !== 'aes-128-gcm') throw new Error('Cipher must be one of aes-128-gcm');
  return {
    version: version,
    ciphertext: ciphertext,
    mac: mac,
    kdf: kdf as KDF,
    kdfparams: {
      parallelism: option(one('parallelism', true), ARGON2_DEFAULTS.parallelism, 'parallelism'),
      iterations: option(one('iterations', true), ARGON2_DEFAULTS.iterations, 'iterations'),
      memorySize: option(one('memorySize', true), ARGON2_DEFAULTS.memorySize, 'memorySize'),
      salt: salt,
    },
    cipher: cipher as Cipher,
    cipherparams: { iv: iv, tag: tag },
  };
};

/** The relayer's ed25519 private key: the config's encryptedPrivateKey decrypted with the password (its plain text is the key's hex). */
export const decryptRelayerKey = async (encryptedPrivateKey: string, password: string): Promise<Buffer> => {
  const plain = (await decryptWithPassword(parseEncryptedMessage(encryptedPrivateKey), password)).toString('utf8');
  const key = Buffer.from(plain, 'hex');
  if (key.length !== ED25519_PRIVATE_KEY_LENGTH || key.toString('hex') !== plain.toLowerCase())
    throw new Error(`The decrypted key is not an ed25519 private key of ${ED25519_PRIVATE_KEY_LENGTH} bytes in hex`);
  return key;
};
