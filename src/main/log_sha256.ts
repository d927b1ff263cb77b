import type { Logger } from 'pino';
import { sha256Backend } from '../lib/crypto/sha256_native.js';

/** Says at start which code hashes the trees and batches of messages: SHA-NI, or why the slower WebAssembly code. */
export const logSha256Backend = (logger: Logger): void => {
  const { backend, why } = sha256Backend();
  if (backend === 'sha-ni') logger.info('Tree and batch SHA-256: native, with the CPU SHA extensions (SHA-NI)');
  else logger.warn({ why }, 'Tree and batch SHA-256: WebAssembly SIMD (the native SHA-NI code is not in use)');
};
