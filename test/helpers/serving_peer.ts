// A peer that serves a node's chain as Kestrel and Klayr do (getLastBlock, getHighestCommonBlock,
// getBlocksFromId), for synchronizer tests over real chains.
import type { Peers } from '../../src/engine/network/peers.js';
import type { Block } from '../../src/lib/chain/block.js';
import { blockHeaderID, encodeBlock } from '../../src/lib/chain/block.js';
import {
  getBlocksFromIdRequestSchema,
  getBlocksFromIdResponseSchema,
  getHighestCommonBlockRequestSchema,
  getHighestCommonBlockResponseSchema,
} from '../../src/lib/chain/p2p_schemas.js';
import { codec } from '../../src/lib/codec/index.js';
import type { OpenedChain } from '../../src/main/chain_setup.js';

export const PEER = '127.0.0.2:7667';

/** Peers where one peer serves `source`'s chain as Kestrel and Klayr do; `tamper` changes a getBlocksFromId answer. */
export const peerServing = (
  source: { opened: Pick<OpenedChain, 'chain' | 'blocks'> },
  tamper: (blocks: Block[]) => Block[] = (b) => b,
) => {
  const penalties: { peerId: string; penalty: number }[] = [];
  const { chain, blocks } = source.opened;
  const peers: Pick<Peers, 'requestFromPeer' | 'applyPenalty' | 'connectedPeers'> = {
    requestFromPeer: async (peerId, procedure, data = Buffer.alloc(0)) => {
      if (procedure === 'getLastBlock') return { peerId, data: encodeBlock(chain.lastBlock()) };
      if (procedure === 'getHighestCommonBlock') {
        const { ids } = codec.decode<{ ids: Buffer[] }>(getHighestCommonBlockRequestSchema, data);
        const id = blocks.highestKnownID(ids) ?? Buffer.alloc(0);
        return { peerId, data: codec.encode(getHighestCommonBlockResponseSchema, { id }) };
      }
      const { blockId } = codec.decode<{ blockId: Buffer }>(getBlocksFromIdRequestSchema, data);
      const height = blocks.heightOfID(blockId) ?? Number.POSITIVE_INFINITY;
      const after: Block[] = [];
      for (let h = height + 1; h <= height + 53; h++) {
        const block = blocks.byHeight(h);
        if (block !== undefined) after.push(block);
      }
      return { peerId, data: codec.encode(getBlocksFromIdResponseSchema, { blocks: tamper(after).map(encodeBlock) }) };
    },
    applyPenalty: (peerId, penalty) => penalties.push({ peerId, penalty }),
    connectedPeers: () => {
      const tip = chain.lastBlock().header;
      return [
        {
          peerId: PEER,
          options: {
            height: tip.height,
            maxHeightPrevoted: tip.maxHeightPrevoted,
            blockVersion: tip.version,
            lastBlockID: blockHeaderID(tip),
          },
        },
      ];
    },
  };
  return { peers, penalties };
};
