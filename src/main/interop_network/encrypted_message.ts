import type { EncryptedMessage } from '../../lib/crypto/index.js';

/**
 * An encrypted message in the one-line form Klayr keeps in configs (the chainConnector plugin's
 * `encryptedPrivateKey`): @klayr/cryptography's stringifyEncryptedMessage, a query string of these
 * keys in this order.
 */
export const stringifyEncryptedMessage = (message: EncryptedMessage): string =>
  new URLSearchParams([
    ['kdf', message.kdf],
    ['cipher', message.cipher],
    ['version', message.version],
    ['ciphertext', message.ciphertext],
    ['mac', message.mac],
    ['salt', message.kdfparams.salt],
    ['iv', message.cipherparams.iv],
    ['tag', message.cipherparams.tag],
    ['iterations', String(message.kdfparams.iterations)],
    ['parallelism', String(message.kdfparams.parallelism)],
    ['memorySize', String(message.kdfparams.memorySize)],
  ]).toString();
