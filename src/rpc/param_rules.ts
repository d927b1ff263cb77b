import type { SchemaProperty } from '../lib/codec/index.js';

const BOUNDED_INTEGER_FORMATS = new Set(['uint32', 'int32']);

/**
 * The bounds every params schema must state, so that no input reaches a handler with a length or
 * size it cannot take: hex strings have a maxLength, integers a maximum (or a 32-bit format).
 * Lists every field that breaks them, as "path: reason".
 */
export const unboundedParams = (schema: SchemaProperty, path = ''): string[] => {
  const found: string[] = [];
  const types =
    schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (schema.format === 'hex' && typeof schema.maxLength !== 'number')
    found.push(`${path || '.'}: hex without maxLength`);
  if (
    types.includes('integer') &&
    typeof schema.maximum !== 'number' &&
    !BOUNDED_INTEGER_FORMATS.has(schema.format ?? '')
  ) {
    found.push(`${path || '.'}: integer without maximum`);
  }
  for (const [name, sub] of Object.entries(schema.properties ?? {}))
    found.push(...unboundedParams(sub, `${path}.${name}`));
  if (schema.items !== undefined) found.push(...unboundedParams(schema.items, `${path}.items`));
  for (const key of ['additionalProperties', 'then', 'else'] as const) {
    const sub = schema[key];
    if (typeof sub === 'object' && sub !== null) found.push(...unboundedParams(sub as SchemaProperty, path));
  }
  if (Array.isArray(schema.oneOf))
    for (const sub of schema.oneOf as SchemaProperty[]) found.push(...unboundedParams(sub, path));
  return found;
};
