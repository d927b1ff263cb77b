/**
 * Just enough of the WebAssembly binary format to emit one module of a few functions over its own
 * exported memory, with the SIMD instructions the 4-lane SHA-256 needs (sha256_x4.ts generates it).
 */

const SIMD = 0xfd;

/** Opcodes used (core spec and the fixed-width SIMD proposal, shipped in every Node.js since 16.4). */
export const op = {
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  localGet: 0x20,
  localSet: 0x21,
  i32Load: 0x28,
  i32Const: 0x41,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
} as const;

export const simd = {
  v128Load: 0x00,
  v128Store: 0x0b,
  v128Const: 0x0c,
  i8x16Shuffle: 0x0d,
  v128And: 0x4e,
  v128Xor: 0x51,
  v128Bitselect: 0x52,
  v128Or: 0x50,
  i32x4Shl: 0xab,
  i32x4ShrU: 0xad,
  i32x4Add: 0xae,
} as const;

export const valueType = { i32: 0x7f, v128: 0x7b } as const;
const EMPTY_BLOCK_TYPE = 0x40;

const unsignedLEB = (value: number): number[] => {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
};

const signedLEB = (value: number): number[] => {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
};

const vector = (items: readonly number[][]): number[] => [...unsignedLEB(items.length), ...items.flat()];
const section = (id: number, body: readonly number[]): number[] => [id, ...unsignedLEB(body.length), ...body];
const name = (text: string): number[] => vector([...Buffer.from(text, 'utf8')].map((b) => [b]));

/** A function body under construction: typed emitters for each instruction, appended in order. */
export class CodeWriter {
  readonly bytes: number[] = [];

  emit(...bytes: number[]): this {
    for (const b of bytes) this.bytes.push(b);
    return this;
  }
  simd(opcode: number, ...immediates: number[]): this {
    return this.emit(SIMD, ...unsignedLEB(opcode), ...immediates);
  }
  get(local: number): this {
    return this.emit(op.localGet, ...unsignedLEB(local));
  }
  set(local: number): this {
    return this.emit(op.localSet, ...unsignedLEB(local));
  }
  i32(value: number): this {
    return this.emit(op.i32Const, ...signedLEB(value));
  }
  /** i32.load with a constant offset (alignment hint 4 bytes). */
  loadI32(offset: number): this {
    return this.emit(op.i32Load, 2, ...unsignedLEB(offset));
  }
  /** v128.load / v128.store with a constant offset (no alignment promised). */
  loadV128(offset: number): this {
    return this.simd(simd.v128Load, 0, ...unsignedLEB(offset));
  }
  storeV128(offset: number): this {
    return this.simd(simd.v128Store, 0, ...unsignedLEB(offset));
  }
  /** A v128 constant holding `value` in all four 32-bit lanes. */
  splatI32(value: number): this {
    const lane = [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
    return this.simd(simd.v128Const, ...lane, ...lane, ...lane, ...lane);
  }
  /** A v128 constant of 16 bytes. */
  v128(bytes: readonly number[]): this {
    if (bytes.length !== 16 || bytes.some((b) => !Number.isInteger(b) || b < 0 || b > 255))
      throw new Error('v128.const takes 16 bytes');
    return this.simd(simd.v128Const, ...bytes);
  }
  shuffle(lanes: readonly number[]): this {
    if (lanes.length !== 16 || lanes.some((l) => l < 0 || l > 31))
      throw new Error('i8x16.shuffle takes 16 lanes in 0..31');
    return this.simd(simd.i8x16Shuffle, ...lanes);
  }
  block(): this {
    return this.emit(op.block, EMPTY_BLOCK_TYPE);
  }
  loop(): this {
    return this.emit(op.loop, EMPTY_BLOCK_TYPE);
  }
  br(depth: number): this {
    return this.emit(op.br, ...unsignedLEB(depth));
  }
  brIf(depth: number): this {
    return this.emit(op.brIf, ...unsignedLEB(depth));
  }
  end(): this {
    return this.emit(op.end);
  }
}

export interface WasmFunction {
  /** Exported under this name. */
  name: string;
  params: readonly number[];
  /** Locals beyond the parameters, in runs of one type. */
  locals: readonly { count: number; type: number }[];
  body: CodeWriter;
}

/** A module of functions (no results) over one memory of `memoryPages` 64 KiB pages, all exported. */
export const wasmModule = (functions: readonly WasmFunction[], memoryPages: number): Uint8Array<ArrayBuffer> => {
  const typeSection = section(
    1,
    vector(functions.map((fn) => [0x60, ...vector(fn.params.map((p) => [p])), ...vector([])])),
  );
  const functionSection = section(3, vector(functions.map((_, i) => unsignedLEB(i))));
  const memorySection = section(5, vector([[0x00, ...unsignedLEB(memoryPages)]]));
  const exportSection = section(
    7,
    vector([
      ...functions.map((fn, i) => [...name(fn.name), 0x00, ...unsignedLEB(i)]),
      [...name('memory'), 0x02, ...unsignedLEB(0)],
    ]),
  );
  const bodies = functions.map((fn) => {
    const locals = vector(fn.locals.map((l) => [...unsignedLEB(l.count), l.type]));
    const body = [...locals, ...fn.body.bytes, op.end];
    return [...unsignedLEB(body.length), ...body];
  });
  const codeSection = section(10, vector(bodies));
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...typeSection,
    ...functionSection,
    ...memorySection,
    ...exportSection,
    ...codeSection,
  ]);
};
