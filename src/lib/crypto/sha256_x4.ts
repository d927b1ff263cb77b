import { CodeWriter, simd, valueType, wasmModule } from './wasm_builder.js';
import { op } from './wasm_builder.js';

/**
 * SHA-256 of `prefix || left || right` (two 32-byte inputs after a constant prefix), four messages at a
 * time in the four 32-bit lanes of WebAssembly SIMD: the sparse Merkle trees' branch hashes, which come
 * by the thousand and are independent level by level. About three times the rate of one libsodium call
 * per hash, which pays a native call and computes one message at a time.
 *
 * The module is generated here (rounds unrolled, state in locals) and compiled once per prefix.
 */

const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** Each lane's padded two-block message is assembled at the start of memory, 128 bytes per lane. */
const LANE_BYTES = 128;
const LANES = 4;
/** One job: three i32 byte offsets into memory (left input, right input, output digest). */
export const PAIR_JOB_BYTES = 12;
/** Memory below this offset belongs to the hasher. */
export const PAIR_HASHER_RESERVED_BYTES = LANES * LANE_BYTES;
const PAGE_BYTES = 65536;

// locals: params (jobs, end), then v128: state h[8], working a..h[8], w[16], four transposition temporaries
const JOBS = 0;
const END = 1;
const H = 2;
const WORK = H + 8;
const W = WORK + 8;
const T = W + 16;
const V128_LOCALS = T + 8 - H;

const rotr = (c: CodeWriter, x: number, n: number) =>
  c
    .get(x)
    .i32(n)
    .simd(simd.i32x4ShrU)
    .get(x)
    .i32(32 - n)
    .simd(simd.i32x4Shl)
    .simd(simd.v128Or);
const shr = (c: CodeWriter, x: number, n: number) => c.get(x).i32(n).simd(simd.i32x4ShrU);
const xor = (c: CodeWriter) => c.simd(simd.v128Xor);
const add = (c: CodeWriter) => c.simd(simd.i32x4Add);

/**
 * Four vectors `from..from+3` (vector l = lane l's four message words, as loaded from memory) into
 * `to..to+3` (vector k = word k of the four lanes), each word byte-swapped (SHA-256 words are big endian).
 * The same shuffles turn the state back into each lane's digest bytes.
 */
const transposeSwapped = (c: CodeWriter, from: number, to: number) => {
  const swapPair = (word: number) => {
    const a = [3, 2, 1, 0].map((b) => 4 * word + b);
    const b = a.map((x) => x + 16);
    return [...a, ...b, ...a.map((x) => x + 4), ...b.map((x) => x + 4)];
  };
  // t0 = [r0.w0 r1.w0 r0.w1 r1.w1], t1 = the same of r2 r3, t2/t3 = words 2 and 3
  const temps = [T + 4, T + 5, T + 6, T + 7];
  c.get(from)
    .get(from + 1)
    .shuffle(swapPair(0))
    .set(temps[0]);
  c.get(from + 2)
    .get(from + 3)
    .shuffle(swapPair(0))
    .set(temps[1]);
  c.get(from)
    .get(from + 1)
    .shuffle(swapPair(2))
    .set(temps[2]);
  c.get(from + 2)
    .get(from + 3)
    .shuffle(swapPair(2))
    .set(temps[3]);
  const low = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
  const high = low.map((x) => x + 8);
  c.get(temps[0]).get(temps[1]).shuffle(low).set(to);
  c.get(temps[0])
    .get(temps[1])
    .shuffle(high)
    .set(to + 1);
  c.get(temps[2])
    .get(temps[3])
    .shuffle(low)
    .set(to + 2);
  c.get(temps[2])
    .get(temps[3])
    .shuffle(high)
    .set(to + 3);
};

/** The 16 message words of block `block` of the four lanes into w[0..15]. */
const loadBlock = (c: CodeWriter, block: number) => {
  for (let group = 0; group < 4; group++) {
    for (let lane = 0; lane < LANES; lane++)
      c.i32(0)
        .loadV128(lane * LANE_BYTES + block * 64 + group * 16)
        .set(T + lane);
    transposeSwapped(c, T, W + 4 * group);
  }
};

/** 64 rounds over w[], from the state in h[] (the block's chaining value), added back into h[]. */
const compress = (c: CodeWriter) => {
  for (let i = 0; i < 8; i++) c.get(H + i).set(WORK + i);
  // vars[k] is the local holding working variable k (a..h) at the current round; renamed instead of moved
  const vars = Array.from({ length: 8 }, (_, i) => WORK + i);
  const t1 = T;
  for (let round = 0; round < 64; round++) {
    const w = W + (round % 16);
    if (round >= 16) {
      const w15 = W + ((round - 15) % 16);
      const w2 = W + ((round - 2) % 16);
      c.get(w).get(W + ((round - 7) % 16));
      add(c);
      rotr(c, w15, 7);
      rotr(c, w15, 18);
      xor(c);
      shr(c, w15, 3);
      xor(c);
      add(c);
      rotr(c, w2, 17);
      rotr(c, w2, 19);
      xor(c);
      shr(c, w2, 10);
      xor(c);
      add(c);
      c.set(w);
    }
    const [a, b, cc, d, e, f, g, h] = vars;
    // t1 = h + S1(e) + ch(e, f, g) + K[round] + w
    c.get(h);
    rotr(c, e, 6);
    rotr(c, e, 11);
    xor(c);
    rotr(c, e, 25);
    xor(c);
    add(c);
    c.get(f).get(g).get(e).simd(simd.v128Bitselect);
    add(c);
    c.splatI32(K[round]);
    add(c);
    c.get(w);
    add(c);
    c.set(t1);
    // e' = d + t1, into d's local
    c.get(d).get(t1);
    add(c);
    c.set(d);
    // a' = t1 + S0(a) + maj(a, b, c), into h's local; maj picks c where a and b differ, else b
    c.get(t1);
    rotr(c, a, 2);
    rotr(c, a, 13);
    xor(c);
    rotr(c, a, 22);
    xor(c);
    add(c);
    c.get(cc).get(b).get(a).get(b);
    xor(c);
    c.simd(simd.v128Bitselect);
    add(c);
    c.set(h);
    vars.unshift(vars.pop() as number);
  }
  for (let i = 0; i < 8; i++) {
    c.get(H + i).get(vars[i]);
    add(c);
    c.set(H + i);
  }
};

/** The function `hashPairs(jobs, count)`: `count` (a multiple of 4) jobs from byte offset `jobs`. */
const hashPairsBody = (prefixLength: number): CodeWriter => {
  const c = new CodeWriter();
  c.get(JOBS).get(END).i32(PAIR_JOB_BYTES).emit(op.i32Mul).emit(op.i32Add).set(END);
  c.block().loop();
  c.get(JOBS).get(END).emit(op.i32GeU).brIf(1);
  for (let lane = 0; lane < LANES; lane++) {
    const job = lane * PAIR_JOB_BYTES;
    const at = lane * LANE_BYTES + prefixLength;
    for (const [input, offset] of [
      [0, 0],
      [4, 32],
    ]) {
      for (const half of [0, 16]) {
        c.i32(0)
          .get(JOBS)
          .loadI32(job + input)
          .loadV128(half)
          .storeV128(at + offset + half);
      }
    }
  }
  for (let i = 0; i < 8; i++) c.splatI32(IV[i]).set(H + i);
  loadBlock(c, 0);
  compress(c);
  loadBlock(c, 1);
  compress(c);
  // h[0..3] and h[4..7] back to each lane's digest bytes
  for (const half of [0, 1]) {
    transposeSwapped(c, H + 4 * half, T);
    for (let lane = 0; lane < LANES; lane++)
      c.get(JOBS)
        .loadI32(lane * PAIR_JOB_BYTES + 8)
        .get(T + lane)
        .storeV128(16 * half);
  }
  c.get(JOBS)
    .i32(LANES * PAIR_JOB_BYTES)
    .emit(op.i32Add)
    .set(JOBS);
  c.br(0).end().end();
  return c;
};

interface PairHasherExports {
  hashPairs(jobs: number, count: number): void;
  memory: WebAssembly.Memory;
}

/**
 * SHA-256(prefix || left || right) in batches over a memory the caller lays out: inputs and outputs
 * are 32-byte slots at offsets of its choosing at or above PAIR_HASHER_RESERVED_BYTES, jobs are
 * (left, right, output) offset triples.
 */
export class Sha256PairHasher {
  readonly #exports: PairHasherExports;
  #heap: Buffer;
  #jobs: Int32Array;

  constructor(readonly prefix: Uint8Array) {
    if (prefix.length > LANE_BYTES - 64 - 9) throw new Error('prefix too long for a two-block message');
    const module = new WebAssembly.Module(
      wasmModule(
        {
          name: 'hashPairs',
          params: [valueType.i32, valueType.i32],
          locals: [{ count: V128_LOCALS, type: valueType.v128 }],
          body: hashPairsBody(prefix.length),
        },
        1,
      ),
    );
    this.#exports = new WebAssembly.Instance(module).exports as unknown as PairHasherExports;
    this.#heap = Buffer.alloc(0);
    this.#jobs = new Int32Array(0);
    this.#refreshViews();
    const messageLength = prefix.length + 64;
    for (let lane = 0; lane < LANES; lane++) {
      const at = lane * LANE_BYTES;
      this.#heap.set(prefix, at);
      this.#heap[at + messageLength] = 0x80;
      this.#heap.writeUInt32BE(messageLength * 8, at + LANE_BYTES - 4);
    }
  }

  #refreshViews(): void {
    const buffer = this.#exports.memory.buffer;
    this.#heap = Buffer.from(buffer);
    this.#jobs = new Int32Array(buffer);
  }

  /** The memory as bytes; a new view after each `reserve` that grew it. */
  get heap(): Buffer {
    return this.#heap;
  }

  /** The memory as i32 words (job triples are written here at `offset / 4`). */
  get words(): Int32Array {
    return this.#jobs;
  }

  /** Makes the memory at least `bytes` long. */
  reserve(bytes: number): void {
    const have = this.#exports.memory.buffer.byteLength;
    if (bytes <= have) return;
    this.#exports.memory.grow(Math.ceil((bytes - have) / PAGE_BYTES));
    this.#refreshViews();
  }

  /**
   * Runs `count` jobs written at byte offset `jobs` (a multiple of 4). The job count is rounded up to
   * whole groups of four by repeating the last job, so room for three more jobs must follow them.
   * No job may read another's output: four are hashed at once (an output may overwrite its own inputs).
   */
  hashPairs(jobs: number, count: number): void {
    if (count === 0) return;
    const whole = (count + 3) & ~3;
    const first = jobs >> 2;
    const last = first + (count - 1) * 3;
    for (let i = count; i < whole; i++) this.#jobs.copyWithin(first + i * 3, last, last + 3);
    this.#exports.hashPairs(jobs, whole);
  }
}
