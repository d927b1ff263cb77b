import { sha256 } from './hash.js';
import type { NativeSha256 } from './sha256_native.js';
import { nativeSha256 } from './sha256_native.js';
import { CodeWriter, op, simd, valueType, wasmModule } from './wasm_builder.js';

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
/** One chain job of Sha256PairHasher.hashChains: five i32 (input, output and key offsets; top and parting depths). */
export const CHAIN_JOB_BYTES = 20;
/** Where the lanes' messages of the one-input function (hashInputs) are assembled, after those of the pair functions. */
const INPUT_LANES_AT = LANES * LANE_BYTES;
/** Memory below this offset belongs to the hasher. */
export const PAIR_HASHER_RESERVED_BYTES = 2 * LANES * LANE_BYTES;
const PAGE_BYTES = 65536;

// locals: params (jobs, end), then v128: state h[8], working a..h[8], w[16], four transposition temporaries
const JOBS = 0;
const END = 1;
const H = 2;
const WORK = H + 8;
const W = WORK + 8;
const T = W + 16;
const V128_LOCALS = T + 8 - H;

/**
 * A 32-bit word of all four lanes as the generator knows it: the same constant in every lane (folded
 * here, at generation) or a local computed at run time.
 */
type Constant = { readonly constant: number };
type Word = Constant | { readonly local: number };
const isConstant = (w: Word): w is Constant => 'constant' in w;

const rotr32 = (x: number, n: number) => ((x >>> n) | (x << (32 - n))) >>> 0;
const add32 = (...xs: number[]) => xs.reduce((a, b) => (a + b) >>> 0, 0);
const bigSigma0 = (x: number) => (rotr32(x, 2) ^ rotr32(x, 13) ^ rotr32(x, 22)) >>> 0;
const bigSigma1 = (x: number) => (rotr32(x, 6) ^ rotr32(x, 11) ^ rotr32(x, 25)) >>> 0;
const smallSigma0 = (x: number) => (rotr32(x, 7) ^ rotr32(x, 18) ^ (x >>> 3)) >>> 0;
const smallSigma1 = (x: number) => (rotr32(x, 17) ^ rotr32(x, 19) ^ (x >>> 10)) >>> 0;
const choose = (e: number, f: number, g: number) => ((e & f) ^ (~e & g)) >>> 0;
const majority = (a: number, b: number, c: number) => ((a & b) ^ (a & c) ^ (b & c)) >>> 0;

const push = (c: CodeWriter, w: Word) => (isConstant(w) ? c.splatI32(w.constant) : c.get(w.local));
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
/** rotr(x, r0) ^ rotr(x, r1) ^ (rotr or shr)(x, r2) of a run-time word. */
const sigma = (c: CodeWriter, x: number, r0: number, r1: number, r2: number, shift: boolean) => {
  rotr(c, x, r0);
  rotr(c, x, r1);
  xor(c);
  if (shift) shr(c, x, r2);
  else rotr(c, x, r2);
  xor(c);
};

/**
 * Pushes the sum of `terms` (constants folded into one) and leaves it on the stack; a term is a
 * constant, a run-time word, or a function of one word with its constant form and its code.
 */
type Term = Word | { readonly of: Word; readonly fold: (x: number) => number; readonly emit: (x: number) => void };
const pushSum = (c: CodeWriter, terms: readonly Term[]): void => {
  let constant = 0;
  let pushed = 0;
  for (const t of terms) {
    if ('of' in t) {
      if (isConstant(t.of)) constant = add32(constant, t.fold(t.of.constant));
      else {
        t.emit(t.of.local);
        if (pushed++ > 0) add(c);
      }
    } else if (isConstant(t)) constant = add32(constant, t.constant);
    else {
      c.get(t.local);
      if (pushed++ > 0) add(c);
    }
  }
  if (pushed === 0 || constant !== 0) {
    c.splatI32(constant);
    if (pushed++ > 0) add(c);
  }
};

/** The message bytes every lane shares (prefix, a constant input, padding and length); null where a lane's input goes. */
const messageTemplate = (prefix: Uint8Array, constantLeft?: Uint8Array, constantRight?: Uint8Array) => {
  const bytes: (number | null)[] = new Array(LANE_BYTES).fill(0);
  prefix.forEach((b, i) => {
    bytes[i] = b;
  });
  for (let i = 0; i < 32; i++) {
    bytes[prefix.length + i] = constantLeft === undefined ? null : constantLeft[i];
    bytes[prefix.length + 32 + i] = constantRight === undefined ? null : constantRight[i];
  }
  const length = prefix.length + 64;
  bytes[length] = 0x80;
  for (let i = 0; i < 4; i++) bytes[LANE_BYTES - 1 - i] = ((length * 8) >>> (8 * i)) & 0xff;
  return bytes;
};

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

/** The 16 message words of block `block`: constants where every lane has the same bytes, else loaded into w[]. */
const loadBlock = (c: CodeWriter, block: number, template: readonly (number | null)[], laneBase = 0): Word[] => {
  const words: Word[] = [];
  for (let group = 0; group < 4; group++) {
    const known = [0, 1, 2, 3].map((k) => {
      const at = block * 64 + group * 16 + 4 * k;
      const bytes = template.slice(at, at + 4);
      return bytes.every((b) => b !== null) ? (bytes as number[]).reduce((v, b) => ((v << 8) | b) >>> 0, 0) : null;
    });
    if (known.some((k) => k === null)) {
      for (let lane = 0; lane < LANES; lane++)
        c.i32(0)
          .loadV128(laneBase + lane * LANE_BYTES + block * 64 + group * 16)
          .set(T + lane);
      transposeSwapped(c, T, W + 4 * group);
    }
    known.forEach((k, i) => {
      words.push(k === null ? { local: W + 4 * group + i } : { constant: k });
    });
  }
  return words;
};

/**
 * 64 rounds over the block's words from the chaining value `h` (the state in h[] unless constant); returns
 * the new chaining value. Everything that depends only on constants is computed here, not emitted: the
 * rounds before the first run-time word, the schedule of a constant block, K + w of a constant word.
 */
const compress = (c: CodeWriter, h: readonly Word[], message: readonly Word[]): Word[] => {
  const w = [...message];
  // slots[k]: the local working variable k (a..h) is written to; renamed each round instead of moved
  const slots = Array.from({ length: 8 }, (_, i) => WORK + i);
  const vars: Word[] = [...h];
  const t1 = T;
  for (let round = 0; round < 64; round++) {
    const i = round % 16;
    if (round >= 16) {
      const w15 = w[(round - 15) % 16];
      const w2 = w[(round - 2) % 16];
      const terms: Term[] = [
        w[i],
        w[(round - 7) % 16],
        { of: w15, fold: smallSigma0, emit: (x) => sigma(c, x, 7, 18, 3, true) },
        { of: w2, fold: smallSigma1, emit: (x) => sigma(c, x, 17, 19, 10, true) },
      ];
      if ([w[i], w[(round - 7) % 16], w15, w2].every(isConstant)) {
        const [a, b, x, y] = [w[i], w[(round - 7) % 16], w15, w2] as Constant[];
        w[i] = { constant: add32(a.constant, b.constant, smallSigma0(x.constant), smallSigma1(y.constant)) };
      } else {
        pushSum(c, terms);
        c.set(W + i);
        w[i] = { local: W + i };
      }
    }
    const [a, b, cc, d, e, f, g, hh] = vars;
    const word = w[i];
    if (!vars.some((v) => !isConstant(v)) && isConstant(word)) {
      const [va, vb, vc, vd, ve, vf, vg, vh] = vars.map((v) => (v as Constant).constant);
      const temp1 = add32(vh, bigSigma1(ve), choose(ve, vf, vg), K[round], word.constant);
      const temp2 = add32(bigSigma0(va), majority(va, vb, vc));
      vars.splice(0, 8, { constant: add32(temp1, temp2) }, a, b, cc, { constant: add32(vd, temp1) }, e, f, g);
      continue;
    }
    // t1 = h + S1(e) + ch(e, f, g) + K[round] + w
    const chooseTerm: Term =
      isConstant(e) && isConstant(f) && isConstant(g)
        ? { constant: choose(e.constant, f.constant, g.constant) }
        : {
            of: { local: -1 },
            fold: () => 0,
            emit: () => {
              push(c, f);
              push(c, g);
              push(c, e);
              c.simd(simd.v128Bitselect);
            },
          };
    pushSum(c, [
      hh,
      { of: e, fold: bigSigma1, emit: (x) => sigma(c, x, 6, 11, 25, false) },
      chooseTerm,
      { constant: K[round] },
      w[i],
    ]);
    c.set(t1);
    // e' = d + t1, into d's slot; a' = t1 + S0(a) + maj(a, b, c), into h's slot (maj picks c where a and b differ, else b)
    pushSum(c, [d, { local: t1 }]);
    c.set(slots[3]);
    const majorityTerm: Term =
      isConstant(a) && isConstant(b) && isConstant(cc)
        ? { constant: majority(a.constant, b.constant, cc.constant) }
        : {
            of: { local: -1 },
            fold: () => 0,
            emit: () => {
              push(c, cc);
              push(c, b);
              push(c, a);
              push(c, b);
              xor(c);
              c.simd(simd.v128Bitselect);
            },
          };
    pushSum(c, [{ local: t1 }, { of: a, fold: bigSigma0, emit: (x) => sigma(c, x, 2, 13, 22, false) }, majorityTerm]);
    c.set(slots[7]);
    const newE: Word = { local: slots[3] };
    const newA: Word = { local: slots[7] };
    vars.splice(0, 8, newA, a, b, cc, newE, e, f, g);
    slots.unshift(slots.pop() as number);
  }
  return h.map((start, k) => {
    const v = vars[k];
    if (isConstant(start) && isConstant(v)) return { constant: add32(start.constant, v.constant) };
    pushSum(c, [start, v]);
    c.set(H + k);
    return { local: H + k };
  });
};

/** h[0..3] and h[4..7] back to each lane's digest bytes (the output address at +8 of its job), then on to the next four jobs. */
const storeDigestsAndAdvance = (c: CodeWriter, jobBytes: number): void => {
  for (const half of [0, 1]) {
    transposeSwapped(c, H + 4 * half, T);
    for (let lane = 0; lane < LANES; lane++)
      c.get(JOBS)
        .loadI32(lane * jobBytes + 8)
        .get(T + lane)
        .storeV128(16 * half);
  }
  c.get(JOBS)
    .i32(LANES * jobBytes)
    .emit(op.i32Add)
    .set(JOBS);
};

/**
 * The loop over `count` (a multiple of 4) jobs from byte offset `jobs`, four per turn: `loadLanes` puts
 * each lane's input bytes into its message at `laneBase`; `template` says which message bytes are the
 * same in every job (and so folded into the code) and how many blocks the message has.
 */
const hashLoop = (template: readonly (number | null)[], laneBase: number, loadLanes: (c: CodeWriter) => void) => {
  const c = new CodeWriter();
  c.get(JOBS).get(END).i32(PAIR_JOB_BYTES).emit(op.i32Mul).emit(op.i32Add).set(END);
  c.block().loop();
  c.get(JOBS).get(END).emit(op.i32GeU).brIf(1);
  loadLanes(c);
  let state: Word[] = IV.map((v) => ({ constant: v >>> 0 }));
  for (let block = 0; block < template.length / 64; block++)
    state = compress(c, state, loadBlock(c, block, template, laneBase));
  state.forEach((v, k) => {
    if (isConstant(v)) c.splatI32(v.constant).set(H + k);
  });
  storeDigestsAndAdvance(c, PAIR_JOB_BYTES);
  c.br(0).end().end();
  return c;
};

/** Jobs (left, right, output): SHA-256(prefix || left || right), the 32-byte inputs copied into the lanes' messages. */
const hashPairsBody = (prefixLength: number, template: readonly (number | null)[]): CodeWriter =>
  hashLoop(template, 0, (c) => {
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
  });

/** The message of `prefix || input` (input bytes null), padded to one block or two. */
const inputTemplate = (prefix: Uint8Array, inputLength: number): (number | null)[] => {
  const length = prefix.length + inputLength;
  const blocks = length + 9 <= 64 ? 1 : 2;
  const bytes: (number | null)[] = new Array(blocks * 64).fill(0);
  prefix.forEach((b, i) => {
    bytes[i] = b;
  });
  for (let i = 0; i < inputLength; i++) bytes[prefix.length + i] = null;
  bytes[length] = 0x80;
  for (let i = 0; i < 4; i++) bytes[blocks * 64 - 1 - i] = ((length * 8) >>> (8 * i)) & 0xff;
  return bytes;
};

/**
 * Jobs (input, unused, output): SHA-256(prefix || input) of `inputLength` bytes. The input is copied in
 * 16-byte pieces; the last piece's bytes past the input are replaced by the message's own (its padding).
 */
const hashInputsBody = (prefixLength: number, inputLength: number, template: readonly (number | null)[]) =>
  hashLoop(template, INPUT_LANES_AT, (c) => {
    for (let lane = 0; lane < LANES; lane++) {
      const at = INPUT_LANES_AT + lane * LANE_BYTES + prefixLength;
      for (let piece = 0; piece * 16 < inputLength; piece++) {
        c.i32(0)
          .get(JOBS)
          .loadI32(lane * PAIR_JOB_BYTES)
          .loadV128(16 * piece);
        const valid = inputLength - 16 * piece;
        if (valid < 16) {
          const bytes = Array.from({ length: 16 }, (_, j) => j);
          c.v128(bytes.map((j) => (j < valid ? 0xff : 0)))
            .simd(simd.v128And)
            .v128(bytes.map((j) => (j < valid ? 0 : (template[prefixLength + 16 * piece + j] ?? 0))))
            .simd(simd.v128Or);
        }
        c.storeV128(at + 16 * piece);
      }
    }
  });

/** Which input of a batch's jobs is the hasher's constant (and so folded into the code), if either. */
export type PairKind = 'pair' | 'constantLeft' | 'constantRight';

type PairFunction = (jobs: number, count: number) => void;
/** Compiled once per (prefix, constant, one-input form); each hasher is an instance of its own with its own memory. */
const compiled = new Map<string, WebAssembly.Module>();
interface PairHasherExports {
  pair: PairFunction;
  constantLeft: PairFunction;
  constantRight: PairFunction;
  inputs?: PairFunction;
  memory: WebAssembly.Memory;
}

/** A second form a hasher computes in the same memory: SHA-256(prefix || input) of inputs of one length (a tree's leaves). */
export interface InputForm {
  readonly prefix: Uint8Array;
  readonly length: number;
}

/** The pair functions (and the one-input form's, if any) compiled for a prefix and constant; cached per process. */
const pairModule = (prefix: Uint8Array, constant: Uint8Array, inputs: InputForm | undefined): WebAssembly.Module => {
  const id = [prefix, constant, inputs?.prefix ?? new Uint8Array(0)]
    .map((b) => Buffer.from(b).toString('hex'))
    .concat(String(inputs?.length ?? 0))
    .join(':');
  let module = compiled.get(id);
  if (module !== undefined) return module;
  const fn = (name: string, body: CodeWriter) => ({
    name,
    params: [valueType.i32, valueType.i32],
    locals: [{ count: V128_LOCALS, type: valueType.v128 }],
    body,
  });
  module = new WebAssembly.Module(
    wasmModule(
      [
        fn('pair', hashPairsBody(prefix.length, messageTemplate(prefix))),
        fn('constantLeft', hashPairsBody(prefix.length, messageTemplate(prefix, constant))),
        fn('constantRight', hashPairsBody(prefix.length, messageTemplate(prefix, undefined, constant))),
        ...(inputs === undefined
          ? []
          : [
              fn(
                'inputs',
                hashInputsBody(inputs.prefix.length, inputs.length, inputTemplate(inputs.prefix, inputs.length)),
              ),
            ]),
      ],
      1,
    ),
  );
  compiled.set(id, module);
  return module;
};

/**
 * SHA-256(prefix || left || right) in batches over a memory the caller lays out: inputs and outputs
 * are 32-byte slots at offsets of its choosing at or above PAIR_HASHER_RESERVED_BYTES, jobs are
 * (left, right, output) offset triples.
 */
export class Sha256PairHasher {
  /** The WebAssembly code, compiled only when no SHA-NI code (`native`) runs the jobs: it takes tens of milliseconds. */
  readonly #wasm?: PairHasherExports;
  readonly #memory: WebAssembly.Memory;
  #heap: Buffer;
  #jobs: Int32Array;

  /**
   * `constant`: a 32-byte input many jobs share (a tree's empty hash), for which the code is specialized:
   * jobs of kind constantLeft or constantRight must have it as that input. `inputs`: the form hashInputs
   * computes, if any.
   */
  constructor(
    readonly prefix: Uint8Array,
    readonly constant: Uint8Array = new Uint8Array(32),
    readonly inputs?: InputForm,
    /** The SHA-NI code that runs the jobs instead of the WebAssembly code, when the machine has it. */
    readonly native: NativeSha256 | undefined = nativeSha256,
  ) {
    if (prefix.length > LANE_BYTES - 64 - 9) throw new Error('prefix too long for a two-block message');
    if (constant.length !== 32) throw new Error('the constant input is 32 bytes');
    if (
      inputs !== undefined &&
      (!Number.isInteger(inputs.length) ||
        inputs.length < 1 ||
        inputs.prefix.length + inputs.length + 9 > LANE_BYTES ||
        inputs.prefix.length + Math.ceil(inputs.length / 16) * 16 > LANE_BYTES)
    )
      throw new Error('the one-input form must fit a two-block message');
    if (native === undefined)
      this.#wasm = new WebAssembly.Instance(pairModule(prefix, constant, inputs))
        .exports as unknown as PairHasherExports;
    this.#memory = this.#wasm?.memory ?? new WebAssembly.Memory({ initial: 1 });
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
    if (inputs !== undefined) {
      const template = inputTemplate(inputs.prefix, inputs.length);
      for (let lane = 0; lane < LANES; lane++)
        template.forEach((b, i) => {
          if (b !== null) this.#heap[INPUT_LANES_AT + lane * LANE_BYTES + i] = b;
        });
    }
  }

  #refreshViews(): void {
    const buffer = this.#memory.buffer;
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
    const have = this.#memory.buffer.byteLength;
    if (bytes <= have) return;
    this.#memory.grow(Math.ceil((bytes - have) / PAGE_BYTES));
    this.#refreshViews();
  }

  /**
   * Runs `count` jobs written at byte offset `jobs` (a multiple of 4). The job count is rounded up to
   * whole groups of four by repeating the last job, so room for three more jobs must follow them.
   * No job may read another's output: four are hashed at once (an output may overwrite its own inputs).
   */
  hashPairs(jobs: number, count: number, kind: PairKind = 'pair'): void {
    if (count === 0) return;
    if (this.native !== undefined) {
      const kindIndex = kind === 'pair' ? 0 : kind === 'constantLeft' ? 1 : 2;
      this.native.pairs(this.#memory.buffer, jobs, count, this.prefix, this.constant, kindIndex);
      return;
    }
    (this.#wasm as PairHasherExports)[kind](jobs, this.#padJobs(jobs, count));
  }

  /**
   * Runs `count` jobs (input, unused, output) of the one-input form at byte offset `jobs`, rounded up as
   * hashPairs rounds them. Each input is read in whole 16-byte pieces: up to 15 bytes past its end must
   * lie inside the memory (they are not used).
   */
  hashInputs(jobs: number, count: number): void {
    const form = this.inputs;
    if (form === undefined) throw new Error('this hasher was made without a one-input form');
    if (count === 0) return;
    if (this.native !== undefined) {
      this.native.inputs(this.#memory.buffer, jobs, count, form.prefix, form.length);
      return;
    }
    (this.#wasm as Required<PairHasherExports>).inputs(jobs, this.#padJobs(jobs, count));
  }

  /**
   * Runs `count` chain jobs written at byte offset `jobs` (a multiple of 4), CHAIN_JOB_BYTES each: the hashes of
   * a run of branches with one child each, from the branch at the input's slot (at the parting depth) up to the
   * top depth, the child on the side of the key's bit at each depth and `constant` on the other. Only the top's
   * hash is written, at the output. Only with the SHA-NI code (`native`): the WebAssembly code has no chains. No job
   * may read another's output.
   */
  hashChains(jobs: number, count: number): void {
    if (this.native === undefined) throw new Error('Chains are hashed by the SHA-NI code only');
    if (count > 0) this.native.chains(this.#memory.buffer, jobs, count, this.prefix, this.constant);
  }

  #padJobs(jobs: number, count: number): number {
    const whole = (count + 3) & ~3;
    const first = jobs >> 2;
    const last = first + (count - 1) * 3;
    for (let i = count; i < whole; i++) this.#jobs.copyWithin(first + i * 3, last, last + 3);
    return whole;
  }
}

/** One job of Sha256Many: three i32 (the padded message's byte offset, its number of blocks, the output's byte offset). */
const MANY_JOB_BYTES = 12;
/** The i32 locals of the many-blocks function, after its v128 locals: blocks left, the current block's byte offset. */
const BLOCKS_LEFT = H + V128_LOCALS;
const BLOCK_OFFSET = BLOCKS_LEFT + 1;

/**
 * Jobs (message, blocks, output) over messages the caller padded (SHA-256's 0x80, zeros, bit length):
 * the four jobs of a turn must have the same number of blocks. The state starts at the IV and goes
 * through each block in a loop: nothing is constant but the IV.
 */
const hashManyBody = (): CodeWriter => {
  const c = new CodeWriter();
  c.get(JOBS).get(END).i32(MANY_JOB_BYTES).emit(op.i32Mul).emit(op.i32Add).set(END);
  c.block().loop();
  c.get(JOBS).get(END).emit(op.i32GeU).brIf(1);
  IV.forEach((v, k) => {
    c.splatI32(v >>> 0).set(H + k);
  });
  c.get(JOBS).loadI32(4).set(BLOCKS_LEFT);
  c.i32(0).set(BLOCK_OFFSET);
  const state: Word[] = IV.map((_, k) => ({ local: H + k }));
  c.loop();
  const message: Word[] = [];
  for (let group = 0; group < 4; group++) {
    for (let lane = 0; lane < LANES; lane++)
      c.get(JOBS)
        .loadI32(lane * MANY_JOB_BYTES)
        .get(BLOCK_OFFSET)
        .emit(op.i32Add)
        .loadV128(group * 16)
        .set(T + lane);
    transposeSwapped(c, T, W + 4 * group);
    for (let i = 0; i < 4; i++) message.push({ local: W + 4 * group + i });
  }
  const next = compress(c, state, message);
  next.forEach((v, k) => {
    if (isConstant(v) || v.local !== H + k) throw new Error('the state must come back into h[]');
  });
  c.get(BLOCK_OFFSET).i32(64).emit(op.i32Add).set(BLOCK_OFFSET);
  c.get(BLOCKS_LEFT).i32(1).emit(op.i32Sub).set(BLOCKS_LEFT);
  c.get(BLOCKS_LEFT).brIf(0);
  c.end();
  storeDigestsAndAdvance(c, MANY_JOB_BYTES);
  c.br(0).end().end();
  return c;
};

let manyModule: WebAssembly.Module | undefined;

/**
 * SHA-256 of many short messages (a block's event encodings, topics, state keys and values), four at a
 * time: each message is copied into the hasher's memory with its padding, the messages grouped by their
 * number of blocks. One libsodium call costs about 0.6 µs of native-call overhead and scalar rounds; here
 * a message costs its copy and about a quarter of a 4-lane compression per block.
 */
export class Sha256Many {
  /** The WebAssembly code, compiled only when no SHA-NI code (`native`) runs the jobs. */
  readonly #run?: PairFunction;
  readonly #memory: WebAssembly.Memory;
  #heap: Buffer;
  #words: Int32Array;

  /** `native`: the SHA-NI code that runs the jobs instead of the WebAssembly code, when the machine has it. */
  constructor(readonly native: NativeSha256 | undefined = nativeSha256) {
    if (native === undefined) {
      manyModule ??= new WebAssembly.Module(
        wasmModule(
          [
            {
              name: 'many',
              params: [valueType.i32, valueType.i32],
              locals: [
                { count: V128_LOCALS, type: valueType.v128 },
                { count: 2, type: valueType.i32 },
              ],
              body: hashManyBody(),
            },
          ],
          1,
        ),
      );
      const exports = new WebAssembly.Instance(manyModule).exports as unknown as {
        many: PairFunction;
        memory: WebAssembly.Memory;
      };
      this.#run = exports.many;
      this.#memory = exports.memory;
    } else this.#memory = new WebAssembly.Memory({ initial: 1 });
    this.#heap = Buffer.from(this.#memory.buffer);
    this.#words = new Int32Array(this.#memory.buffer);
  }

  #reserve(bytes: number): void {
    const have = this.#memory.buffer.byteLength;
    if (bytes <= have) return;
    this.#memory.grow(Math.ceil((bytes - have) / PAGE_BYTES));
    this.#heap = Buffer.from(this.#memory.buffer);
    this.#words = new Int32Array(this.#memory.buffer);
  }

  /** The 32-byte digests of `messages`, in their order (views of one buffer). */
  hashAll(messages: readonly Uint8Array[]): Buffer[] {
    const n = messages.length;
    if (n === 0) return [];
    // jobs grouped by block count (counting sort), each group padded to a whole turn of four
    const blocksOf = new Int32Array(n);
    const perCount: number[] = [];
    let messageBytes = 0;
    for (let i = 0; i < n; i++) {
      const blocks = Math.ceil((messages[i].length + 9) / 64);
      blocksOf[i] = blocks;
      perCount[blocks] = (perCount[blocks] ?? 0) + 1;
      messageBytes += blocks * 64;
    }
    const firstJob: number[] = [];
    let jobs = 0;
    for (let b = 0; b < perCount.length; b++) {
      if (perCount[b] === undefined) continue;
      firstJob[b] = jobs;
      jobs += (perCount[b] + 3) & ~3;
    }
    const outputsAt = 0;
    const messagesAt = outputsAt + 32 * n;
    const jobsAt = messagesAt + messageBytes;
    this.#reserve(jobsAt + jobs * MANY_JOB_BYTES);
    const heap = this.#heap;
    const words = this.#words;
    const next = Int32Array.from(firstJob, (j) => j ?? 0);
    let at = messagesAt;
    for (let i = 0; i < n; i++) {
      const message = messages[i];
      const blocks = blocksOf[i];
      const end = at + blocks * 64;
      heap.set(message, at);
      heap[at + message.length] = 0x80;
      heap.fill(0, at + message.length + 1, end - 4);
      heap.writeUInt32BE(message.length * 8, end - 4);
      const w = (jobsAt >> 2) + 3 * next[blocks]++;
      words[w] = at;
      words[w + 1] = blocks;
      words[w + 2] = outputsAt + 32 * i;
      at = end;
    }
    for (let b = 0; b < perCount.length; b++) {
      const count = perCount[b];
      if (count === undefined) continue;
      if (this.native !== undefined) {
        this.native.many(this.#memory.buffer, jobsAt + MANY_JOB_BYTES * firstJob[b], count);
        continue;
      }
      const first = (jobsAt >> 2) + 3 * firstJob[b];
      const last = first + 3 * (count - 1);
      const whole = (count + 3) & ~3;
      for (let i = count; i < whole; i++) words.copyWithin(first + 3 * i, last, last + 3);
      (this.#run as PairFunction)(jobsAt + MANY_JOB_BYTES * firstJob[b], whole);
    }
    const digests = Buffer.from(heap.subarray(outputsAt, outputsAt + 32 * n));
    const out = new Array<Buffer>(n);
    for (let i = 0; i < n; i++) out[i] = digests.subarray(32 * i, 32 * i + 32);
    return out;
  }
}

/** Memory the shared Sha256Many may keep for the process's life; a larger batch (a genesis block's state) gets one of its own. */
const SHARED_MANY_BYTES = 16 * 1024 * 1024;
let sharedMany: Sha256Many | undefined;

/** SHA-256 of each message (Sha256Many), in their order. */
export const sha256All = (messages: readonly Uint8Array[]): Buffer[] => {
  let bytes = 0;
  for (const m of messages) bytes += m.length + 64 + 32 + MANY_JOB_BYTES;
  if (bytes > SHARED_MANY_BYTES) return new Sha256Many().hashAll(messages);
  sharedMany ??= new Sha256Many();
  return sharedMany.hashAll(messages);
};

/**
 * From this many messages on, one batch (sha256All: several messages per SHA-NI pass) beats one libsodium call each
 * (a block's 100 transaction IDs: about 3x).
 */
const BATCH_MESSAGES = 8;

/** SHA-256 of each message, in their order: a batch (sha256All) from BATCH_MESSAGES on, else one call each. */
export const sha256Each = (messages: readonly Uint8Array[]): Buffer[] =>
  messages.length < BATCH_MESSAGES ? messages.map((m) => sha256(m)) : sha256All(messages);
