import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { nativeSha256, sha256Backend } from '../../src/lib/crypto/sha256_native.js';
import type { InputForm, PairKind } from '../../src/lib/crypto/sha256_x4.js';
import {
  PAIR_HASHER_RESERVED_BYTES,
  PAIR_JOB_BYTES,
  Sha256Many,
  Sha256PairHasher,
} from '../../src/lib/crypto/sha256_x4.js';
import { Rng } from '../helpers/random.js';

const sha256 = (...parts: Buffer[]): string => createHash('sha256').update(Buffer.concat(parts)).digest('hex');

/** `count` random (left, right) pairs hashed in one call; every output checked against node:crypto. */
const checkBatch = (
  hasher: Sha256PairHasher,
  rng: Rng,
  count: number,
  outputOverLeft = false,
  kind: PairKind = 'pair',
) => {
  const inputsAt = PAIR_HASHER_RESERVED_BYTES;
  const outputsAt = inputsAt + 64 * count;
  const jobsAt = outputsAt + 32 * count;
  hasher.reserve(jobsAt + (count + 3) * PAIR_JOB_BYTES);
  const constant = Buffer.from(hasher.constant);
  const pairs = Array.from({ length: count }, () => ({
    left: kind === 'constantLeft' ? constant : rng.bytes(32),
    right: kind === 'constantRight' ? constant : rng.bytes(32),
  }));
  pairs.forEach((p, i) => {
    hasher.heap.set(p.left, inputsAt + 64 * i);
    hasher.heap.set(p.right, inputsAt + 64 * i + 32);
    const job = (jobsAt >> 2) + 3 * i;
    hasher.words[job] = inputsAt + 64 * i;
    hasher.words[job + 1] = inputsAt + 64 * i + 32;
    hasher.words[job + 2] = outputOverLeft ? inputsAt + 64 * i : outputsAt + 32 * i;
  });
  hasher.hashPairs(jobsAt, count, kind);
  pairs.forEach((p, i) => {
    const at = outputOverLeft ? inputsAt + 64 * i : outputsAt + 32 * i;
    assert.equal(
      hasher.heap.subarray(at, at + 32).toString('hex'),
      sha256(Buffer.from(hasher.prefix), p.left, p.right),
      `${kind} ${i} of ${count}, prefix of ${hasher.prefix.length} bytes`,
    );
  });
};

/** Every case runs over both codes that run the jobs: WebAssembly SIMD everywhere, SHA-NI where the machine has it. */
const BACKENDS = [
  ['WebAssembly SIMD, four lanes', undefined],
  ['SHA-NI, native', nativeSha256],
] as const;

for (const [name, native] of BACKENDS) {
  const skip = name.startsWith('SHA-NI') && native === undefined ? `no SHA-NI here: ${sha256Backend().why}` : false;
  const pairHasher = (prefix: Uint8Array, constant?: Uint8Array, inputs?: InputForm) =>
    new Sha256PairHasher(prefix, constant, inputs, native);

  describe(`SHA-256 of prefix || left || right in batches (${name})`, { skip }, () => {
    it('equals node:crypto for prefixes of 0 to 55 bytes and batches of 1 to 9 pairs (partial groups of four)', () => {
      const rng = new Rng(4);
      for (const prefixLength of [0, 1, 3, 8, 9, 17, 31, 55]) {
        const hasher = pairHasher(rng.bytes(prefixLength));
        for (let count = 1; count <= 9; count++) checkBatch(hasher, rng, count);
      }
    });

    it('with a constant left or right input folded into the code, equals node:crypto too', () => {
      const rng = new Rng(7);
      for (const prefixLength of [0, 5, 9, 30, 55]) {
        const hasher = pairHasher(rng.bytes(prefixLength), rng.bytes(32));
        for (const kind of ['constantLeft', 'constantRight'] as const)
          for (const count of [1, 4, 7, 40]) checkBatch(hasher, rng, count, false, kind);
      }
      const zeros = pairHasher(Buffer.from('LSK_SMTB_'));
      checkBatch(zeros, rng, 9, false, 'constantLeft');
      checkBatch(zeros, rng, 9, true, 'constantRight');
    });

    it('writes an output over one of its own inputs (a chain step reuses its slot)', () => {
      checkBatch(pairHasher(Buffer.from('LSK_SMTB_')), new Rng(5), 6, true);
    });

    it('keeps its results when the memory grows between batches', () => {
      const rng = new Rng(6);
      const hasher = pairHasher(Buffer.from('LSK_SMTB_'));
      checkBatch(hasher, rng, 3);
      checkBatch(hasher, rng, 5000);
      checkBatch(hasher, rng, 2);
    });

    it('refuses a prefix that does not leave a two-block message, and a constant input that is not 32 bytes', () => {
      assert.throws(() => pairHasher(Buffer.alloc(56)), /prefix too long/);
      assert.throws(() => pairHasher(Buffer.alloc(9), Buffer.alloc(31)), /32 bytes/);
    });

    it('hashes nothing for an empty batch', () => {
      const hasher = pairHasher(Buffer.alloc(9));
      const before = Buffer.from(hasher.heap);
      hasher.hashPairs(PAIR_HASHER_RESERVED_BYTES, 0);
      assert.deepEqual(hasher.heap, before);
    });

    it('hashInputs: SHA-256(prefix || input) equals node:crypto for one- and two-block messages, whole and partial last pieces', () => {
      const rng = new Rng(8);
      for (const [prefixLength, length] of [
        [9, 44],
        [9, 70],
        [9, 32],
        [0, 1],
        [3, 16],
        [0, 55],
        [0, 56],
        [13, 99],
        [1, 112],
      ] as const) {
        const prefix = rng.bytes(prefixLength);
        const hasher = pairHasher(Buffer.from('LSK_SMTB_'), undefined, { prefix, length });
        for (const count of [1, 3, 4, 9]) {
          const stride = Math.ceil(length / 16) * 16 + 16;
          const inputsAt = PAIR_HASHER_RESERVED_BYTES;
          const jobsAt = inputsAt + stride * count + 16;
          hasher.reserve(jobsAt + (count + 3) * PAIR_JOB_BYTES);
          // bytes past each input are not zero: they must not reach the hash
          hasher.heap.fill(0xa5, inputsAt, jobsAt);
          const inputs = Array.from({ length: count }, () => rng.bytes(length));
          inputs.forEach((input, i) => {
            hasher.heap.set(input, inputsAt + stride * i);
            const job = (jobsAt >> 2) + 3 * i;
            hasher.words[job] = inputsAt + stride * i;
            hasher.words[job + 2] = inputsAt + stride * i; // over its own input
          });
          hasher.hashInputs(jobsAt, count);
          inputs.forEach((input, i) => {
            const at = inputsAt + stride * i;
            assert.equal(
              hasher.heap.subarray(at, at + 32).toString('hex'),
              sha256(prefix, input),
              `input ${i} of ${count}: ${length} bytes after a prefix of ${prefixLength}`,
            );
          });
        }
      }
    });

    it('hashInputs: the pair functions of the same hasher still hash pairs; a hasher without the form refuses', () => {
      const rng = new Rng(9);
      const hasher = pairHasher(Buffer.from('LSK_SMTB_'), rng.bytes(32), {
        prefix: Buffer.from('LSK_SMTL_'),
        length: 44,
      });
      for (const kind of ['pair', 'constantLeft', 'constantRight'] as const) checkBatch(hasher, rng, 7, false, kind);
      assert.throws(() => pairHasher(Buffer.alloc(9)).hashInputs(PAIR_HASHER_RESERVED_BYTES, 1), /one-input form/);
      assert.throws(
        () => pairHasher(Buffer.alloc(9), undefined, { prefix: Buffer.alloc(9), length: 111 }),
        /two-block message/,
      );
      assert.throws(
        () => pairHasher(Buffer.alloc(9), undefined, { prefix: Buffer.alloc(9), length: 0 }),
        /two-block message/,
      );
    });
  });

  describe(`SHA-256 of many short messages (Sha256Many, ${name})`, { skip }, () => {
    it('equals node:crypto for every length from 0 to 300 bytes, in mixed order, over several calls', () => {
      const rng = new Rng(10);
      const many = new Sha256Many(native);
      const lengths = Array.from({ length: 301 }, (_, i) => i);
      for (let round = 0; round < 3; round++) {
        const messages = lengths.map((length) => rng.bytes(length));
        for (let i = messages.length - 1; i > 0; i--) {
          const j = rng.int(i + 1);
          [messages[i], messages[j]] = [messages[j]!, messages[i]!];
        }
        const digests = many.hashAll(messages.slice(0, 50 + round * 100));
        digests.forEach((d, i) => {
          assert.equal(d.toString('hex'), sha256(messages[i]!), `message ${i} of ${messages[i]!.length} bytes`);
        });
      }
    });

    it('hashes one message, and nothing for none', () => {
      const many = new Sha256Many(native);
      assert.deepEqual(many.hashAll([]), []);
      assert.equal(many.hashAll([Buffer.from('abc')])[0]!.toString('hex'), sha256(Buffer.from('abc')));
    });

    it('grows its memory for a large batch and keeps hashing small ones after it', () => {
      const rng = new Rng(11);
      const many = new Sha256Many(native);
      const big = Array.from({ length: 3000 }, () => rng.bytes(200));
      const digests = many.hashAll(big);
      assert.equal(digests[2999]!.toString('hex'), sha256(big[2999]!));
      assert.equal(digests[0]!.toString('hex'), sha256(big[0]!));
      const small = [rng.bytes(5), rng.bytes(70)];
      assert.deepEqual(
        many.hashAll(small).map((d) => d.toString('hex')),
        small.map((m) => sha256(m)),
      );
    });
  });
}

describe('SHA-NI code: what it refuses', { skip: nativeSha256 === undefined }, () => {
  const native = nativeSha256!;
  const memory = new ArrayBuffer(4096);
  const words = new Int32Array(memory);
  const prefix = Buffer.from('LSK_SMTB_');

  it('refuses jobs that lie outside the memory, and job inputs or outputs outside it, before hashing any', () => {
    const unchanged = (call: () => void, error: RegExp | typeof RangeError) => {
      const before = Buffer.from(memory).toString('hex');
      assert.throws(call, error);
      assert.equal(Buffer.from(memory).toString('hex'), before, 'nothing written');
    };
    // the first job is good, the second's output runs past the end
    words.set([0, 32, 64, 0, 32, 4090], 0);
    unchanged(() => native.pairs(memory, 4096 - 12, 2, prefix, Buffer.alloc(32), 0), RangeError);
    unchanged(() => native.pairs(memory, 0, 2, prefix, Buffer.alloc(32), 0), /outside the memory/);
    unchanged(() => native.inputs(memory, 0, 2, prefix, 44), /outside the memory/);
    // a message of 200 blocks from offset 0
    words.set([0, 200, 100], 0);
    unchanged(() => native.many(memory, 0, 1), /outside the memory/);
  });

  it("hashes chains: each level's child on the side of the key's bit, the top written; refuses bad chain jobs, writing nothing", () => {
    const bytes = Buffer.from(memory);
    const constant = Buffer.alloc(32, 9);
    const input = Buffer.alloc(32, 5);
    const key = Buffer.from([0b10110010, 0b01000000]);
    const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
    // depths 9 down to 2 (parting 10, top 2), then a chain of no level: its top is its input
    bytes.set(input, 1024);
    bytes.set(key, 2048);
    words.set([1024, 1536, 2048, 2, 10, 1024, 1600, 2048, 4, 4], 0);
    native.chains(memory, 0, 2, prefix, constant);
    let h = input;
    for (let depth = 9; depth >= 2; depth--) {
      const bit = (key[depth >> 3]! >> (7 - (depth & 7))) & 1;
      h = bit === 0 ? sha(prefix, h, constant) : sha(prefix, constant, h);
    }
    assert.equal(bytes.subarray(1536, 1568).toString('hex'), h.toString('hex'));
    assert.equal(bytes.subarray(1600, 1632).toString('hex'), input.toString('hex'));
    const unchanged = (job: number[], error: RegExp) => {
      words.set(job, 0);
      const before = bytes.toString('hex');
      assert.throws(() => native.chains(memory, 0, 1, prefix, constant), error);
      assert.equal(bytes.toString('hex'), before, 'nothing written');
    };
    unchanged([1024, 4090, 2048, 2, 10], /outside the memory/);
    unchanged([-32, 1536, 2048, 2, 10], /outside the memory/);
    unchanged([1024, 1536, 2048, 10, 2], /out of order/);
    unchanged([1024, 1536, 4095, 0, 16], /key lies outside/);
    assert.throws(() => native.chains(memory, 4096 - 16, 1, prefix, constant), /jobs lie outside/);
    assert.throws(() => native.chains(memory, 0, 1, prefix, Buffer.alloc(31)), /constant/);
  });

  it('hashes chains sixteen at a time (AVX-512, where the CPU has it) as the four-lane code does: any prefix, lengths, jobs of no level', () => {
    const rng = new Rng(16);
    const bigMemory = new ArrayBuffer(1 << 16);
    const bytes = Buffer.from(bigMemory);
    const words = new Int32Array(bigMemory);
    const [inputsAt, outputsAt, keysAt, jobsAt] = [0, 8192, 16384, 32768];
    // one job to 1..70 (the wide code hands its last few chains to the four-lane code), under prefixes of every word offset
    for (const [count, prefixLength] of [
      [1, 9],
      [5, 0],
      [17, 1],
      [40, 2],
      [70, 3],
      [33, 55],
      [64, 12],
    ]) {
      const prefix = rng.bytes(prefixLength);
      const constant = rng.bytes(32);
      const jobs = Array.from({ length: count }, (_, j) => {
        const top = rng.int(90);
        // every seventh job has no level (its top is its input); the others run 1 to 95 levels
        const parting = j % 7 === 3 ? top : top + 1 + rng.int(95 - top);
        return { input: rng.bytes(32), key: rng.bytes(12), top, parting };
      });
      jobs.forEach((job, j) => {
        bytes.set(job.input, inputsAt + 32 * j);
        bytes.set(job.key, keysAt + 12 * j);
        words.set(
          [inputsAt + 32 * j, outputsAt + 32 * j, keysAt + 12 * j, job.top, job.parting],
          (jobsAt >> 2) + 5 * j,
        );
      });
      const expected = jobs.map(({ input, key, top, parting }) => {
        let h = input;
        for (let depth = parting - 1; depth >= top; depth--) {
          const bit = (key[depth >> 3]! >> (7 - (depth & 7))) & 1;
          h = Buffer.from(bit === 0 ? sha256(prefix, h, constant) : sha256(prefix, constant, h), 'hex');
        }
        return h.toString('hex');
      });
      for (const wide of [true, false]) {
        bytes.fill(0, outputsAt, outputsAt + 32 * count);
        native.chains(bigMemory, jobsAt, count, prefix, constant, wide);
        const outputs = jobs.map((_, j) => bytes.subarray(outputsAt + 32 * j, outputsAt + 32 * j + 32).toString('hex'));
        assert.deepEqual(outputs, expected, `${count} jobs, prefix of ${prefixLength} bytes, wide ${wide}`);
      }
    }
    // `wide` left undefined is the default; anything but a boolean is refused
    assert.doesNotThrow(() => native.chains(bigMemory, jobsAt, 1, Buffer.alloc(1), Buffer.alloc(32), undefined));
    assert.throws(
      () => native.chains(bigMemory, jobsAt, 1, Buffer.alloc(1), Buffer.alloc(32), 'yes' as unknown as boolean),
      /bad arguments/,
    );
  });

  it('refuses a prefix over 55 bytes, a constant that is not 32 bytes, an unknown kind and missing arguments', () => {
    words.set([0, 32, 64], 0);
    assert.throws(() => native.pairs(memory, 0, 1, Buffer.alloc(56), Buffer.alloc(32), 0), /prefix/);
    assert.throws(() => native.pairs(memory, 0, 1, prefix, Buffer.alloc(31), 0), /constant/);
    assert.throws(() => native.pairs(memory, 0, 1, prefix, Buffer.alloc(32), 3), /kind/);
    assert.throws(() => native.inputs(memory, 0, 1, prefix, 120), /two-block/);
    assert.throws(() => (native.many as unknown as (m: ArrayBuffer) => void)(memory), /bad arguments/);
  });
});
