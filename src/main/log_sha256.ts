import type { Logger } from 'pino';
import { nativeSha256, sha256Backend } from '../lib/crypto/sha256_native.js';

/** Says at start which code hashes the trees and batches of messages: SHA-NI, or why the slower WebAssembly code. */
export const logSha256Backend = (logger: Logger): void => {
  const { backend, why } = sha256Backend();
  if (backend === 'sha-ni')
    logger.info(
      nativeSha256?.wideChains === true
        ? 'Tree and batch SHA-256: native, with the CPU SHA extensions (SHA-NI), event-tree chains sixteen at once (AVX-512)'
        : 'Tree and batch SHA-256: native, with the CPU SHA extensions (SHA-NI)',
    );
  else logger.warn({ why }, 'Tree and batch SHA-256: WebAssembly SIMD (the native SHA-NI code is not in use)');
};
