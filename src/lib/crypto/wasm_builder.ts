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

// The module is assembled from byte arrays joined natively: spreading its tens of thousands of code
// bytes through JavaScript arrays cost more than generating them.
const bytesOf = (...parts: readonly (readonly number[] | Uint8Array)[]): Buffer =>
  Buffer.concat(parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p))));
const vector = (items: readonly (readonly number[] | Uint8Array)[]): Buffer =>
  bytesOf(unsignedLEB(items.length), ...items);
const section = (id: number, body: Uint8Array): Buffer => bytesOf([id], unsignedLEB(body.length), body);
const name = (text: string): Buffer => {
  const utf8 = Buffer.from(text, 'utf8');
  return bytesOf(unsignedLEB(utf8.length), utf8);
};

/** A function body under construction: typed emitters for each instruction, appended in order. */
// The emitters push bytes one by one (no rest arguments, no spread arrays): a SHA-256 module is
// tens of thousands of instructions, generated once per process, and a node's first start waits
// for it (this cold code runs mostly in the interpreter, where every temporary array costs).
export class CodeWriter {
  readonly bytes: number[] = [];

  emit(...bytes: number[]): this {
    for (const b of bytes) this.bytes.push(b);
    return this;
  }
  #byte(b: number): this {
    this.bytes.push(b);
    return this;
  }
  #unsigned(value: number): this {
    let v = value >>> 0;
    do {
      let byte = v & 0x7f;
      v >>>= 7;
      if (v !== 0) byte |= 0x80;
      this.bytes.push(byte);
    } while (v !== 0);
    return this;
  }
  #signed(value: number): this {
    let v = value | 0;
    for (;;) {
      const byte = v & 0x7f;
      v >>= 7;
      if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
        this.bytes.push(byte);
        return this;
      }
      this.bytes.push(byte | 0x80);
    }
  }
  simd(opcode: number, ...immediates: number[]): this {
    this.#byte(SIMD).#unsigned(opcode);
    for (const b of immediates) this.bytes.push(b);
    return this;
  }
  get(local: number): this {
    return this.#byte(op.localGet).#unsigned(local);
  }
  set(local: number): this {
    return this.#byte(op.localSet).#unsigned(local);
  }
  i32(value: number): this {
    return this.#byte(op.i32Const).#signed(value);
  }
  /** i32.load with a constant offset (alignment hint 4 bytes). */
  loadI32(offset: number): this {
    return this.#byte(op.i32Load).#byte(2).#unsigned(offset);
  }
  /** v128.load / v128.store with a constant offset (no alignment promised). */
  loadV128(offset: number): this {
    return this.#byte(SIMD).#unsigned(simd.v128Load).#byte(0).#unsigned(offset);
  }
  storeV128(offset: number): this {
    return this.#byte(SIMD).#unsigned(simd.v128Store).#byte(0).#unsigned(offset);
  }
  /** A v128 constant holding `value` in all four 32-bit lanes. */
  splatI32(value: number): this {
    this.#byte(SIMD).#unsigned(simd.v128Const);
    for (let lane = 0; lane < 4; lane++)
      this.bytes.push(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff);
    return this;
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
    this.#byte(SIMD).#unsigned(simd.i8x16Shuffle);
    for (const l of lanes) this.bytes.push(l);
    return this;
  }
  block(): this {
    return this.#byte(op.block).#byte(EMPTY_BLOCK_TYPE);
  }
  loop(): this {
    return this.#byte(op.loop).#byte(EMPTY_BLOCK_TYPE);
  }
  br(depth: number): this {
    return this.#byte(op.br).#unsigned(depth);
  }
  brIf(depth: number): this {
    return this.#byte(op.brIf).#unsigned(depth);
  }
  end(): this {
    return this.#byte(op.end);
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
    vector(functions.map((fn) => bytesOf([0x60], vector(fn.params.map((p) => [p])), vector([])))),
  );
  const functionSection = section(3, vector(functions.map((_, i) => unsignedLEB(i))));
  const memorySection = section(5, vector([[0x00, ...unsignedLEB(memoryPages)]]));
  const exportSection = section(
    7,
    vector([
      ...functions.map((fn, i) => bytesOf(name(fn.name), [0x00], unsignedLEB(i))),
      bytesOf(name('memory'), [0x02], unsignedLEB(0)),
    ]),
  );
  const bodies = functions.map((fn) => {
    const locals = vector(fn.locals.map((l) => [...unsignedLEB(l.count), l.type]));
    const body = bytesOf(locals, fn.body.bytes, [op.end]);
    return bytesOf(unsignedLEB(body.length), body);
  });
  const codeSection = section(10, vector(bodies));
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const module = bytesOf(header, typeSection, functionSection, memorySection, exportSection, codeSection);
  // a copy that owns its ArrayBuffer (Buffer.concat may return a view of a shared pool)
  return new Uint8Array(module);
};
