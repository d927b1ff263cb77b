import type { CompiledSchema, Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { EncryptedMessage } from '../../lib/crypto/encrypt.js';
import { required } from '../../lib/required.js';
import type { BinaryDB } from '../../storage/database.js';
import { TABLES, tableKey, tableRange } from '../../storage/tables.js';
import type { GeneratorKeys } from './keys.js';

const generatorKeysSchema = {
  $id: '/generator/generatorKeysSchema',
  type: 'object',
  required: ['type', 'data'],
  properties: { type: { dataType: 'string', fieldNumber: 1 }, data: { dataType: 'bytes', fieldNumber: 2 } },
} as const satisfies Schema;
export const plainGeneratorKeysSchema = {
  $id: '/generator/plainGeneratorKeys',
  type: 'object',
  required: ['generatorKey', 'generatorPrivateKey', 'blsKey', 'blsPrivateKey'],
  properties: {
    generatorKey: { dataType: 'bytes', fieldNumber: 1 },
    generatorPrivateKey: { dataType: 'bytes', fieldNumber: 2 },
    blsKey: { dataType: 'bytes', fieldNumber: 3 },
    blsPrivateKey: { dataType: 'bytes', fieldNumber: 4 },
  },
} as const satisfies Schema;
/** Klayr stores the encrypted keys without the key file's mac (the GCM tag authenticates them). */
export const encryptedMessageSchema = {
  $id: '/generator/encryptedMessage',
  type: 'object',
  required: ['version', 'ciphertext', 'kdf', 'kdfparams', 'cipher', 'cipherparams'],
  properties: {
    version: { dataType: 'string', fieldNumber: 1 },
    ciphertext: { dataType: 'string', fieldNumber: 2 },
    kdf: { dataType: 'string', fieldNumber: 3 },
    kdfparams: {
      type: 'object',
      fieldNumber: 4,
      required: ['parallelism', 'iterations', 'memorySize', 'salt'],
      properties: {
        parallelism: { dataType: 'uint32', fieldNumber: 1 },
        iterations: { dataType: 'uint32', fieldNumber: 2 },
        memorySize: { dataType: 'uint32', fieldNumber: 3 },
        salt: { dataType: 'string', fieldNumber: 4 },
      },
    },
    cipher: { dataType: 'string', fieldNumber: 5 },
    cipherparams: {
      type: 'object',
      fieldNumber: 6,
      required: ['iv', 'tag'],
      properties: { iv: { dataType: 'string', fieldNumber: 1 }, tag: { dataType: 'string', fieldNumber: 2 } },
    },
  },
} as const satisfies Schema;

type PlainKeys = Omit<GeneratorKeys, 'address'>;
export type StoredGeneratorKeys =
  | { type: 'plain'; keys: PlainKeys }
  | { type: 'encrypted'; message: Omit<EncryptedMessage, 'mac'> };

const wrapper: CompiledSchema<{ type: string; data: Buffer }> = compile<{ type: string; data: Buffer }>(
  generatorKeysSchema,
);
const plainCodec: CompiledSchema<PlainKeys> = compile<PlainKeys>(plainGeneratorKeysSchema);
const encryptedCodec: CompiledSchema<Omit<EncryptedMessage, 'mac'>> =
  compile<Omit<EncryptedMessage, 'mac'>>(encryptedMessageSchema);
const keysKey = (address: Buffer): Buffer => tableKey(TABLES.generatorKeys, address);

/** The generator keys this node holds, plain or encrypted at rest (Klayr's generator key store). */
export class GeneratorKeyStore {
  constructor(private readonly db: BinaryDB) {}

  set(address: Buffer, keys: StoredGeneratorKeys): void {
    const data = keys.type === 'plain' ? plainCodec.encode(keys.keys) : encryptedCodec.encode(keys.message);
    this.db.putSync(keysKey(address), wrapper.encode({ type: keys.type, data }));
  }

  get(address: Buffer): StoredGeneratorKeys | undefined {
    const raw = this.db.get(keysKey(address));
    if (raw === undefined) return undefined;
    const { type, data } = wrapper.decode(raw);
    return type === 'plain'
      ? { type, keys: plainCodec.decode(data) }
      : { type: 'encrypted', message: encryptedCodec.decode(data) };
  }

  has(address: Buffer): boolean {
    return this.db.get(keysKey(address)) !== undefined;
  }

  all(): { address: Buffer; keys: StoredGeneratorKeys }[] {
    const out: { address: Buffer; keys: StoredGeneratorKeys }[] = [];
    for (const { key } of this.db.getRange(tableRange(TABLES.generatorKeys, 20))) {
      const address = Buffer.from(key).subarray(TABLES.generatorKeys.prefix.length);
      out.push({ address, keys: required(this.get(address), 'Generator keys listed by the key store') });
    }
    return out;
  }

  /** Decodes stored plain keys (the plain bytes of decrypted ones). */
  static decodePlain(bytes: Uint8Array): PlainKeys {
    return plainCodec.decode(bytes);
  }

  static encodePlain(keys: PlainKeys): Buffer {
    return plainCodec.encode(keys);
  }
}
