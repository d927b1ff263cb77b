import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The SHA-NI hasher (native/sha256_ni.c, built by `npm ci` into build/kestrel_sha256.node): the job lists of
 * sha256_x4.ts hashed with the x86 SHA extensions, about 2.5 times the rate of the 4-lane WebAssembly code.
 * Undefined where it was not built, the CPU lacks SHA-NI, or KESTREL_SHA256=wasm asks for the WebAssembly code.
 */
export interface NativeSha256 {
  /** SHA-256(prefix || left || right) per job (left, right, output offsets); kind 1: left is `constant`, 2: right is. */
  pairs(memory: ArrayBuffer, jobs: number, count: number, prefix: Uint8Array, constant: Uint8Array, kind: number): void;
  /** SHA-256(prefix || input) per job (input offset, unused, output offset), inputs of `length` bytes. */
  inputs(memory: ArrayBuffer, jobs: number, count: number, prefix: Uint8Array, length: number): void;
  /** SHA-256 of messages padded in memory, per job (message offset, block count, output offset). */
  many(memory: ArrayBuffer, jobs: number, count: number): void;
  /**
   * Per job (input, output and key offsets; top and parting depths): from the hash at input, for each depth from
   * parting - 1 up to top, SHA-256(prefix || child || constant) or, where the key's bit is 1, (prefix || constant ||
   * child); the last at output. Sixteen chains at once in AVX-512 registers where `wideChains` (the tail and
   * `wide` false: four with SHA-NI). No job may read another's output (its input, key or output bytes).
   */
  chains(
    memory: ArrayBuffer,
    jobs: number,
    count: number,
    prefix: Uint8Array,
    constant: Uint8Array,
    wide?: boolean,
  ): void;
  /** Whether this CPU runs the sixteen-lane AVX-512 chain code. */
  readonly wideChains: boolean;
}

/** Where the addon is built, from dist/src/lib/crypto/ (compiled) or src/lib/crypto/ (sources). */
const CANDIDATES = ['../../../../build/kestrel_sha256.node', '../../../build/kestrel_sha256.node'];

export type Sha256Backend = 'sha-ni' | 'wasm';

const load = (): { native?: NativeSha256; why: string } => {
  if (process.env.KESTREL_SHA256 === 'wasm') return { why: 'KESTREL_SHA256=wasm' };
  const path = CANDIDATES.map((c) => fileURLToPath(new URL(c, import.meta.url))).find((p) => existsSync(p));
  if (path === undefined)
    return { why: 'build/kestrel_sha256.node was not built (no C compiler or Node headers at install)' };
  try {
    const addon = createRequire(import.meta.url)(path) as Partial<NativeSha256> & { supported: boolean };
    if (!addon.supported) return { why: 'this CPU has no SHA extensions' };
    return { native: addon as NativeSha256, why: '' };
  } catch (error) {
    return { why: `build/kestrel_sha256.node did not load: ${(error as Error).message}` };
  }
};

const loaded = load();

/** The SHA-NI hasher, when this machine runs it. */
export const nativeSha256: NativeSha256 | undefined = loaded.native;

/** Which code hashes the trees' branches and batches of messages, and why not SHA-NI when it is not. */
export const sha256Backend = (): { backend: Sha256Backend; why?: string } =>
  nativeSha256 !== undefined ? { backend: 'sha-ni' } : { backend: 'wasm', why: loaded.why };
