import type { CompiledSchema, Schema } from '../codec/index.js';
import { compile } from '../codec/index.js';

/** One validator's BLS signature of a block's certificate (LIP 0061). */
export interface SingleCommit {
  blockID: Buffer;
  height: number;
  validatorAddress: Buffer;
  certificateSignature: Buffer;
}

/** The P2P event carrying single commits (klayr-framework's NETWORK_EVENT_COMMIT_MESSAGES). */
export const NETWORK_EVENT_COMMIT_MESSAGES = 'postSingleCommitMessages';

/** klayr-framework's certificate_generation singleCommitSchema. */
export const singleCommitSchema = {
  $id: '/consensus/singleCommit',
  type: 'object',
  required: ['blockID', 'height', 'validatorAddress', 'certificateSignature'],
  properties: {
    blockID: { dataType: 'bytes', fieldNumber: 1, minLength: 32, maxLength: 32 },
    height: { dataType: 'uint32', fieldNumber: 2 },
    validatorAddress: { dataType: 'bytes', minLength: 20, maxLength: 20, fieldNumber: 3, format: 'klayr32' },
    certificateSignature: { dataType: 'bytes', fieldNumber: 4, minLength: 96, maxLength: 96 },
  },
} as const satisfies Schema;

/** klayr-framework's singleCommitsNetworkPacketSchema: each commit encoded on its own. */
export const singleCommitsNetworkPacketSchema = {
  $id: '/consensus/singleCommitsNetworkPacket',
  type: 'object',
  required: ['commits'],
  properties: {
    commits: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } },
  },
} as const satisfies Schema;

const commitCodec: CompiledSchema<SingleCommit> = compile<SingleCommit>(singleCommitSchema);
const packetCodec = compile<{ commits: Buffer[] }>(singleCommitsNetworkPacketSchema);

export const encodeSingleCommitsPacket = (commits: readonly SingleCommit[]): Buffer =>
  packetCodec.encode({ commits: commits.map((c) => commitCodec.encode(c)) });

/** The packet's encoded commits; throws on bytes that are not a packet. */
export const decodeSingleCommitsPacket = (bytes: Uint8Array): Buffer[] => packetCodec.decode(bytes).commits;

/** One commit decoded and checked against its schema; throws on bytes or values the schema refuses. */
export const decodeSingleCommit = (bytes: Uint8Array): SingleCommit => {
  const commit = commitCodec.decode(bytes);
  commitCodec.validate(commit);
  return commit;
};
