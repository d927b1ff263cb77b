export { CompiledSchema, codec, compile } from './codec.js';
export type { ValidationIssue } from './errors.js';
export { CodecError, ValidationError } from './errors.js';
export { hexToBytes } from './json.js';
export { LastWritten } from './last_written.js';
export { RecentDecodes } from './recent_decodes.js';
export type { DataType, Schema, SchemaProperty } from './types.js';
export type { Validator } from './validate.js';
export { assertValid, compileValidator } from './validate.js';
