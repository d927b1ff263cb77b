import type { Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { BinaryDB } from '../../storage/database.js';
import { TABLES, tableKey, tableRange } from '../../storage/tables.js';

/** What a validator last generated: guards against generating contradicting blocks (LIP 0058). */
export interface GeneratedInfo {
  height: number;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
}

const previouslyGeneratedInfoSchema = {
  $id: '/node/generator/previously_generated_info',
  title: 'Previously Generated Info',
  type: 'object',
  required: ['height', 'maxHeightPrevoted', 'maxHeightGenerated'],
  properties: {
    height: { dataType: 'uint32', fieldNumber: 1 },
    maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 2 },
    maxHeightGenerated: { dataType: 'uint32', fieldNumber: 3 },
  },
} as const satisfies Schema;
const infoCodec = compile<GeneratedInfo>(previouslyGeneratedInfoSchema);

export const ZERO_GENERATED_INFO: Readonly<GeneratedInfo> = { height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 };

export const generatedInfoKey = (address: Buffer): Buffer => tableKey(TABLES.generatedInfo, address);

/** The addresses with stored generated info, in key order. */
export const generatedInfoAddresses = (db: BinaryDB): Buffer[] =>
  [...db.getKeys(tableRange(TABLES.generatedInfo, 20))].map((key) =>
    Buffer.from(key).subarray(TABLES.generatedInfo.prefix.length),
  );

export const getGeneratedInfo = (db: BinaryDB, address: Buffer): GeneratedInfo => {
  const raw = db.get(generatedInfoKey(address));
  return raw === undefined ? { ...ZERO_GENERATED_INFO } : infoCodec.decode(raw);
};

/** Call inside the block's commit transaction. */
export const putGeneratedInfoSync = (db: BinaryDB, address: Buffer, info: GeneratedInfo): void =>
  db.putSync(generatedInfoKey(address), infoCodec.encode(info));
