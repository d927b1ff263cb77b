import type { FieldNode, ObjectNode } from './schema_tree.js';
import { isPacked } from './schema_tree.js';
import type { Writer } from './writer.js';
import * as rt from './writer.js';

export type EncodeFn = (w: Writer, value: unknown) => void;

/**
 * Generates one encoder function per object node. Fields are written in
 * fieldNumber order, every scalar always (Klayr writes no defaults away),
 * empty arrays not at all, numeric/boolean arrays packed. A property the
 * schema does not require is skipped when the value leaves it out.
 */
export const generateEncoder = (root: ObjectNode): EncodeFn => {
  const fns: EncodeFn[] = [];
  const consts: unknown[] = [];
  const constRef = (value: unknown): string => {
    consts.push(value);
    return `k[${consts.length - 1}]`;
  };

  const objectFn = (node: ObjectNode, path: string): number => {
    const index = fns.length;
    fns.push(undefined as unknown as EncodeFn);
    const lines: string[] = [`const o = rt.expectObject(value, ${JSON.stringify(path)});`, 'let v, l;'];
    for (const field of node.fields) lines.push(...fieldCode(field));
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    fns[index] = new Function('rt', 'fns', 'k', `return function encode(w, value) {\n${lines.join('\n')}\n};`)(
      rt,
      fns,
      consts,
    ) as EncodeFn;
    return index;
  };

  const fieldCode = (f: FieldNode): string[] => {
    const name = JSON.stringify(f.name);
    const path = JSON.stringify(f.path);
    const key = constRef(f.key);
    const out = [`v = o[${name}];`];
    if (f.optional) out.push('if (v !== undefined) {');
    out.push(...valueCode(f, path, key));
    if (f.optional) out.push('}');
    return out;
  };

  const valueCode = (f: FieldNode, path: string, key: string): string[] => {
    const out: string[] = [];
    const item = f.item;
    if (!f.array) {
      if (item.kind === 'object') {
        const child = objectFn(item, f.path);
        out.push(`rt.writeKey(w, ${key}); l = rt.openLength(w); fns[${child}](w, v); rt.closeLength(w, l);`);
      } else {
        out.push(`rt.writeKey(w, ${key}); rt.scalarWriters.${item.dataType}(w, v, ${path});`);
      }
      return out;
    }
    out.push(`v = rt.expectArray(v, ${path});`);
    if (item.kind === 'object') {
      const child = objectFn(item, `${f.path}[]`);
      out.push(
        `for (let i = 0; i < v.length; i++) { rt.writeKey(w, ${key}); l = rt.openLength(w); fns[${child}](w, v[i]); rt.closeLength(w, l); }`,
      );
    } else if (isPacked(item)) {
      out.push(
        `if (v.length > 0) { rt.writeKey(w, ${key}); l = rt.openLength(w); for (let i = 0; i < v.length; i++) rt.scalarWriters.${item.dataType}(w, v[i], ${path}); rt.closeLength(w, l); }`,
      );
    } else {
      out.push(
        `for (let i = 0; i < v.length; i++) { rt.writeKey(w, ${key}); rt.scalarWriters.${item.dataType}(w, v[i], ${path}); }`,
      );
    }
    return out;
  };

  return fns[objectFn(root, '')];
};
