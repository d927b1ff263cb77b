import type { Schema, SchemaProperty } from '../../src/lib/codec/index.js';

/** Seeded PRNG (mulberry32) so every random test is reproducible from its seed. */
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = this.int(256);
    return out;
  }
  uint32(): number {
    return this.pick([0, 1, 127, 128, 16383, 16384, 0xffffffff, this.int(2 ** 32), this.int(300)]);
  }
  sint32(): number {
    return this.pick([0, -1, 1, -64, 64, 0x7fffffff, -0x80000000, this.int(2 ** 31) - 2 ** 30]);
  }
  uint64(): bigint {
    const big = (BigInt(this.int(2 ** 32)) << 32n) | BigInt(this.int(2 ** 32));
    return this.pick([
      0n,
      1n,
      127n,
      128n,
      2n ** 53n,
      2n ** 64n - 1n,
      2n ** 49n - 1n,
      2n ** 49n,
      big,
      BigInt(this.int(2 ** 32)),
    ]);
  }
  sint64(): bigint {
    const v = this.uint64() >> 1n;
    return this.next() < 0.5 ? v : -v - 1n;
  }
  string(maxLength: number): string {
    const alphabet = ['a', 'Z', '0', ' ', '_', 'é', 'ß', '中', '😀', 'ü', 'Å'];
    const length = this.int(maxLength + 1);
    let s = '';
    while ([...s].length < length) s += this.pick(alphabet);
    return s.normalize('NFC');
  }
}

const lengthRange = (p: SchemaProperty, fallbackMax: number): [number, number] => {
  const min = typeof p.minLength === 'number' ? p.minLength : 0;
  const max = typeof p.maxLength === 'number' ? Math.min(p.maxLength, min + fallbackMax) : min + fallbackMax;
  return [min, max];
};

const clamp = (p: SchemaProperty, v: number): number =>
  Math.min(
    typeof p.maximum === 'number' ? p.maximum : Infinity,
    Math.max(typeof p.minimum === 'number' ? p.minimum : -Infinity, v),
  );

const scalar = (rng: Rng, p: SchemaProperty): unknown => {
  switch (p.dataType) {
    case 'uint32':
      return clamp(p, rng.uint32());
    case 'sint32':
      return clamp(p, rng.sint32());
    case 'uint64':
      return rng.uint64();
    case 'sint64':
      return rng.sint64();
    case 'boolean':
      return rng.next() < 0.5;
    case 'string': {
      const [min, max] = lengthRange(p, 40);
      if (typeof p.pattern === 'string') {
        const re = new RegExp(p.pattern, 'u');
        const alnum = 'abcXYZ0189';
        for (let attempt = 0; attempt < 100; attempt++) {
          const candidate = Array.from({ length: min + rng.int(max - min + 1) }, () => rng.pick([...alnum])).join('');
          if (re.test(candidate)) return candidate;
        }
        throw new Error(`cannot generate a string for pattern ${p.pattern}`);
      }
      let s = rng.string(max);
      while ([...s].length < min) s += 'a';
      return s;
    }
    case 'bytes': {
      if (p.format === 'klayr32') return rng.bytes(20);
      const [min, max] = lengthRange(p, 70);
      return rng.bytes(min + rng.int(max - min + 1));
    }
    default:
      throw new Error(`unknown dataType ${String(p.dataType)}`);
  }
};

const hasScalarField = (p: SchemaProperty): boolean =>
  Object.values(p.properties ?? {}).some((f) => f.type !== 'array');

/** A random object satisfying the schema's types and byte/string length limits. */
export const randomObject = (rng: Rng, schema: Schema | SchemaProperty, inArray = false): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  let forcedNonEmpty = inArray && !hasScalarField(schema);
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    if (p.type === 'object') out[name] = randomObject(rng, p);
    else if (p.type === 'array') {
      const min = typeof p.minItems === 'number' ? p.minItems : forcedNonEmpty ? 1 : 0;
      const max = Math.max(min, typeof p.maxItems === 'number' ? Math.min(p.maxItems, 4) : 4);
      forcedNonEmpty = false;
      const n = min + rng.int(max - min + 1);
      out[name] = Array.from({ length: n }, () =>
        p.items!.type === 'object' ? randomObject(rng, p.items!, true) : scalar(rng, p.items!),
      );
    } else out[name] = scalar(rng, p);
  }
  return out;
};
