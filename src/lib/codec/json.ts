import { addressToKlayr32, klayr32ToAddress } from '../crypto/address.js';
import { CodecError } from './errors.js';
import type { ItemNode, ObjectNode } from './schema_tree.js';
import type { DataType } from './types.js';

type Mapper = (value: unknown, path: string) => unknown;

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const INTEGER = /^-?[0-9]+$/;

export const hexToBytes = (value: unknown, path: string): Buffer => {
  if (typeof value !== 'string' || !HEX.test(value)) throw new CodecError('Expected an even-length hex string', path);
  return Buffer.from(value, 'hex');
};

const bytesToJSON = (format: string | undefined): Mapper => {
  switch (format) {
    case 'base64':
      return (v, p) => asBytes(v, p).toString('base64');
    case 'klayr32':
      return (v, p) => addressToKlayr32(asBytes(v, p));
    default:
      return (v, p) => asBytes(v, p).toString('hex');
  }
};

const bytesFromJSON = (format: string | undefined): Mapper => {
  switch (format) {
    case 'base64':
      return (v, p) => {
        if (typeof v !== 'string') throw new CodecError('Expected a base64 string', p);
        return Buffer.from(v, 'base64');
      };
    case 'klayr32':
      return (v, p) => {
        if (typeof v !== 'string') throw new CodecError('Expected a klayr32 address string', p);
        try {
          return klayr32ToAddress(v);
        } catch (e) {
          throw new CodecError((e as Error).message, p);
        }
      };
    default:
      return hexToBytes;
  }
};

const asBytes = (v: unknown, path: string): Buffer => {
  if (!(v instanceof Uint8Array)) throw new CodecError('Expected bytes', path);
  return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
};

const bigintToJSON: Mapper = (v, path) => {
  if (typeof v !== 'bigint') throw new CodecError('Expected a bigint', path);
  return v.toString();
};

const bigintFromJSON: Mapper = (v, path) => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'string' && INTEGER.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  throw new CodecError('Expected a decimal integer string', path);
};

const identity: Mapper = (v) => v;

const scalarMapper = (mode: 'toJSON' | 'fromJSON', dataType: DataType, format: string | undefined): Mapper => {
  if (dataType === 'bytes') return mode === 'toJSON' ? bytesToJSON(format) : bytesFromJSON(format);
  if (dataType === 'uint64' || dataType === 'sint64') return mode === 'toJSON' ? bigintToJSON : bigintFromJSON;
  return identity;
};

/**
 * Builds a converter between the decoded form (Buffer, bigint) and the JSON form
 * (hex/base64/klayr32 strings, decimal strings). Properties not in the schema are dropped, as @klayr/codec does.
 */
export const generateJSONMapper = (root: ObjectNode, mode: 'toJSON' | 'fromJSON'): Mapper => {
  const itemMapper = (item: ItemNode): Mapper =>
    item.kind === 'object' ? objectMapper(item) : scalarMapper(mode, item.dataType, item.format);

  const objectMapper = (node: ObjectNode): Mapper => {
    const fields = node.fields.map((f) => {
      const map = itemMapper(f.item);
      const convert: Mapper = f.array
        ? (v, p) => {
            if (!Array.isArray(v)) throw new CodecError('Expected an array', p);
            return v.map((x, i) => map(x, `${p}[${i}]`));
          }
        : map;
      return { name: f.name, convert };
    });
    return (value, path) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
        throw new CodecError('Expected an object', path || '<root>');
      }
      const input = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const { name, convert } of fields) {
        const v = input[name];
        if (v !== undefined) out[name] = convert(v, `${path}.${name}`);
      }
      return out;
    };
  };

  return objectMapper(root);
};
