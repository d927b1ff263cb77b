import type { BufferCursor } from './reader.js';
import * as rt from './reader.js';
import type { FieldNode, ObjectNode } from './schema_tree.js';
import { isPacked, wireType } from './schema_tree.js';

export type DecodeFn = (c: BufferCursor, end: number) => Record<string, unknown>;

/** Condition that the key bytes at the cursor equal `key` (keys are minimal varints, so bytes equal means keys equal). */
const keyMatch = (key: readonly number[]): string =>
  [`c.pos + ${key.length} <= end`, ...key.map((b, i) => `c.buf[c.pos + ${i}] === ${b}`)].join(' && ');

/**
 * Generates one strict decoder per object node: every field must appear once,
 * in fieldNumber order, with its wire type; arrays may be absent; nothing may follow.
 */
export const generateDecoder = (root: ObjectNode): DecodeFn => {
  const fns: DecodeFn[] = [];

  const objectFn = (node: ObjectNode, path: string): number => {
    const index = fns.length;
    fns.push(undefined as unknown as DecodeFn);
    const lines: string[] = ['let e;'];
    const names: string[] = [];
    node.fields.forEach((field, i) => {
      lines.push(...fieldCode(field, `f${i}`));
      names.push(`${JSON.stringify(field.name)}: f${i}`);
    });
    lines.push(`if (c.pos !== end) throw rt.trailingError(c, end, ${JSON.stringify(path)});`);
    lines.push(`return { ${names.join(', ')} };`);
    fns[index] = new Function('rt', 'fns', `return function decode(c, end) {\n${lines.join('\n')}\n};`)(
      rt,
      fns,
    ) as DecodeFn;
    return index;
  };

  const fieldCode = (f: FieldNode, v: string): string[] => {
    const match = keyMatch(f.key);
    const skipKey = `c.pos += ${f.key.length};`;
    const item = f.item;
    const missing = `throw rt.keyError(c, end, ${f.fieldNumber}, ${wireType(item, f.array)}, ${JSON.stringify(f.path)});`;
    if (!f.array) {
      if (item.kind === 'object') {
        const child = objectFn(item, f.path);
        return [`if (!(${match})) ${missing}`, skipKey, `e = rt.readLength(c, end); const ${v} = fns[${child}](c, e);`];
      }
      return [`if (!(${match})) ${missing}`, skipKey, `const ${v} = rt.scalarReaders.${item.dataType}(c, end);`];
    }
    if (item.kind === 'object') {
      const child = objectFn(item, `${f.path}[]`);
      return [
        `const ${v} = [];`,
        `while (${match}) { ${skipKey} e = rt.readLength(c, end); ${v}.push(fns[${child}](c, e)); }`,
      ];
    }
    if (isPacked(item)) {
      return [
        `const ${v} = [];`,
        `if (${match}) { ${skipKey} e = rt.readLength(c, end); if (e === c.pos) throw rt.emptyPackedError(c, ${JSON.stringify(f.path)}); while (c.pos < e) ${v}.push(rt.scalarReaders.${item.dataType}(c, e)); }`,
      ];
    }
    return [
      `const ${v} = [];`,
      `while (${match}) { ${skipKey} ${v}.push(rt.scalarReaders.${item.dataType}(c, end)); }`,
    ];
  };

  return fns[objectFn(root, '')];
};
