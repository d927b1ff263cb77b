import type { FieldNode, ItemNode, ObjectNode } from './schema_tree.js';
import { isPacked } from './schema_tree.js';
import { MAX_UINT32, MAX_UINT64 } from './varint.js';
import type { Writer } from './writer.js';
import * as rt from './writer.js';

export type EncodeFn = (w: Writer, value: unknown) => void;

/** Up to this many bytes, a bytes value is copied in a loop (the native copy's call costs more for addresses and IDs). */
const SHORT_BYTES = 32;

/**
 * Code that makes room for `bytes` more bytes, then points `b` and `p` at the output and writes the key.
 * The key bytes are constants of the schema, written one by one.
 */
const open = (key: readonly number[], bytes: string): string =>
  `if (w.pos + ${bytes} > w.buf.length) rt.ensure(w, ${bytes}); b = w.buf; p = w.pos; ${key.map((k) => `b[p++] = ${k};`).join(' ')}`;

/** Code writing the uint32 in variable `n` as a varint at `p` (it consumes `n`). */
const varint32 = 'while (n > 127) { b[p++] = (n & 127) | 128; n >>>= 7; } b[p++] = n;';

/**
 * The code writing one scalar held in `x` with its key (none for a packed array's values), inlined for the
 * types every block writes most (uint32, uint64, boolean, bytes); any value these checks refuse goes to
 * the writer's function, which throws its error. The other types call their writer after the key.
 */
const scalarCode = (dataType: string, key: readonly number[], path: string): string => {
  const k = key.length;
  const fallback = `else rt.scalarWriters.${dataType}(w, x, ${path});`;
  switch (dataType) {
    case 'uint32':
      return `if (typeof x === 'number' && x >= 0 && x <= ${MAX_UINT32} && Number.isInteger(x)) { ${open(key, String(k + 5))} n = x; ${varint32} w.pos = p; } ${fallback}`;
    case 'uint64':
      // Number() of a uint64 up to 2^32-1 is exact, and of anything larger at least 2^32
      return `if (typeof x === 'bigint' && x >= 0n && x <= ${MAX_UINT64}n) { ${open(key, String(k + 10))} n = Number(x); if (n <= ${MAX_UINT32}) { ${varint32} } else p = rt.writeUInt64At(b, p, x); w.pos = p; } ${fallback}`;
    case 'boolean':
      return `if (x === true || x === false) { ${open(key, String(k + 1))} b[p++] = x ? 1 : 0; w.pos = p; } ${fallback}`;
    case 'bytes':
      return `if (x instanceof Uint8Array) { m = x.length; ${open(key, `${k + 5} + m`)} n = m; ${varint32} if (m <= ${SHORT_BYTES}) { for (let j = 0; j < m; j++) b[p + j] = x[j]; } else b.set(x, p); w.pos = p + m; } ${fallback}`;
    default:
      return k === 0
        ? `rt.scalarWriters.${dataType}(w, x, ${path});`
        : `${open(key, String(k))} w.pos = p; rt.scalarWriters.${dataType}(w, x, ${path});`;
  }
};

/**
 * Generates one encoder function per object node. Fields are written in
 * fieldNumber order, every scalar always (Klayr writes no defaults away),
 * empty arrays not at all, numeric/boolean arrays packed. A property the
 * schema does not require is skipped when the value leaves it out.
 */
export const generateEncoder = (root: ObjectNode): EncodeFn => {
  const fns: EncodeFn[] = [];

  const objectFn = (node: ObjectNode, path: string): number => {
    const index = fns.length;
    fns.push(undefined as unknown as EncodeFn);
    const lines: string[] = [`const o = rt.expectObject(value, ${JSON.stringify(path)});`, 'let v, x, l, b, p, n, m;'];
    for (const field of node.fields) lines.push(...fieldCode(field));
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    fns[index] = new Function('rt', 'fns', `return function encode(w, value) {\n${lines.join('\n')}\n};`)(
      rt,
      fns,
    ) as EncodeFn;
    return index;
  };

  /** Code writing the object in `x` under `key`, its length filled in once it is written. */
  const nestedCode = (item: ObjectNode, key: readonly number[], path: string): string => {
    const child = objectFn(item, path);
    return `${open(key, String(key.length + 1))} l = p; w.pos = p + 1; fns[${child}](w, x); rt.closeLength(w, l);`;
  };

  const fieldCode = (f: FieldNode): string[] => {
    const name = JSON.stringify(f.name);
    const out = [`v = o[${name}];`];
    if (f.optional) out.push('if (v !== undefined) {');
    out.push(valueCode(f, f.item));
    if (f.optional) out.push('}');
    return out;
  };

  const valueCode = (f: FieldNode, item: ItemNode): string => {
    const path = JSON.stringify(f.path);
    if (!f.array) {
      if (item.kind === 'object') return `x = v; ${nestedCode(item, f.key, f.path)}`;
      return `x = v; ${scalarCode(item.dataType, f.key, path)}`;
    }
    const loop = 'v = rt.expectArray(v, PATH); for (let i = 0; i < v.length; i++) { x = v[i]; BODY }'.replace(
      'PATH',
      path,
    );
    if (item.kind === 'object') return loop.replace('BODY', () => nestedCode(item, f.key, `${f.path}[]`));
    if (isPacked(item)) {
      const packed = `v = rt.expectArray(v, ${path}); if (v.length > 0) { ${open(f.key, String(f.key.length + 1))} l = p; w.pos = p + 1; for (let i = 0; i < v.length; i++) { x = v[i]; ${scalarCode(item.dataType, [], path)} } rt.closeLength(w, l); }`;
      return packed;
    }
    return loop.replace('BODY', () => scalarCode(item.dataType, f.key, path));
  };

  return fns[objectFn(root, '')];
};
