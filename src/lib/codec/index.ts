export { codec, compile, CompiledSchema } from './codec.js';
export { CodecError, ValidationError } from './errors.js';
export type { ValidationIssue } from './errors.js';
export type { DataType, Schema, SchemaProperty } from './types.js';
export { compileValidator, assertValid } from './validate.js';
export type { Validator } from './validate.js';
export { hexToBytes } from './json.js';
