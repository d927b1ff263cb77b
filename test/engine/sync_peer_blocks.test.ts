import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { unsignedGenesisHeader } from '../../src/engine/genesis.js';
import { ApplyPenaltyAndAbortError, ApplyPenaltyAndRestartError } from '../../src/engine/sync/errors.js';
import { PeerBlocks } from '../../src/engine/sync/peer_blocks.js';
import type { Block } from '../../src/lib/chain/block.js';
import { blockHeaderID, encodeBlock } from '../../src/lib/chain/block.js';
import {
  getBlocksFromIdResponseSchema,
  getHighestCommonBlockRequestSchema,
  getHighestCommonBlockResponseSchema,
} from '../../src/lib/chain/p2p_schemas.js';
import { codec } from '../../src/lib/codec/index.js';
import type { PeerInfo } from '../../src/network/p2p/types.js';
import { Network } from '../../src/network/protocol/network.js';
import { FakeP2P } from '../helpers/fake_p2p.js';

const block = (height: number): Block => ({
  header: unsignedGenesisHeader({ height, timestamp: 1000 + height, previousBlockID: Buffer.alloc(32), assets: [] }),
  transactions: [],
  assets: [],
});

class PeersP2P extends FakeP2P {
  peers: PeerInfo[] = [];
  override getConnectedPeers(): readonly PeerInfo[] {
    return this.peers;
  }
}

describe('the synchronizer over the network layer', () => {
  it("Network.connectedPeers lists each connected peer's announced chain, and a peer that announced none without options", () => {
    const p2p = new PeersP2P();
    const options = { height: 7, maxHeightPrevoted: 3, blockVersion: 2, lastBlockID: Buffer.alloc(32, 9), legacy: [] };
    p2p.peers = [
      {
        peerId: '127.0.0.2:7667',
        ipAddress: '127.0.0.2',
        port: 7667,
        sharedState: { chainID: Buffer.alloc(4), networkVersion: '5.1', nonce: 'n', advertiseAddress: true, options },
      },
      { peerId: '127.0.0.3:7667', ipAddress: '127.0.0.3', port: 7667 },
    ];
    const network = new Network(p2p, pino({ level: 'silent' }));
    assert.deepEqual(network.connectedPeers(), [
      {
        peerId: '127.0.0.2:7667',
        options: { height: 7, maxHeightPrevoted: 3, blockVersion: 2, lastBlockID: Buffer.alloc(32, 9), legacy: [] },
      },
      { peerId: '127.0.0.3:7667' },
    ]);
  });

  it('asks a peer for its tip, the highest common block and the blocks after an ID, with the protocol payloads', async () => {
    const p2p = new FakeP2P();
    const network = new Network(p2p, pino({ level: 'silent' }));
    const known = block(4);
    const peerBlocks = new PeerBlocks(network, (id) =>
      id.equals(blockHeaderID(known.header)) ? known.header : undefined,
    );
    const asked: string[] = [];
    let commonID: Buffer = Buffer.alloc(0);
    let blocks: Buffer[] = [];
    let tip: Buffer | undefined;
    p2p.answer = async (procedure, data, peerId) => {
      asked.push(`${procedure}@${peerId}`);
      if (procedure === 'getLastBlock') return { data: tip, peerId };
      if (procedure === 'getHighestCommonBlock') {
        const { ids } = codec.decode<{ ids: Buffer[] }>(getHighestCommonBlockRequestSchema, data ?? Buffer.alloc(0));
        assert.equal(ids.length, 2);
        return { data: codec.encode(getHighestCommonBlockResponseSchema, { id: commonID }), peerId };
      }
      return { data: codec.encode(getBlocksFromIdResponseSchema, { blocks }), peerId };
    };
    const ids = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    await assert.rejects(() => peerBlocks.lastBlock('p:1'), ApplyPenaltyAndRestartError);
    tip = Buffer.from([1, 2, 3]);
    await assert.rejects(() => peerBlocks.lastBlock('p:1'), ApplyPenaltyAndAbortError);
    tip = encodeBlock(block(9));
    assert.equal((await peerBlocks.lastBlock('p:1')).header.height, 9);
    assert.equal(await peerBlocks.highestCommonBlock('p:1', ids), undefined, 'an empty ID: no common block');
    commonID = Buffer.alloc(32, 5);
    await assert.rejects(() => peerBlocks.highestCommonBlock('p:1', ids), /not in this chain/);
    commonID = Buffer.alloc(31, 5);
    await assert.rejects(() => peerBlocks.highestCommonBlock('p:1', ids), ApplyPenaltyAndAbortError);
    commonID = blockHeaderID(known.header);
    assert.equal((await peerBlocks.highestCommonBlock('p:1', ids))?.height, 4);
    await assert.rejects(() => peerBlocks.blocksFrom('p:1', commonID), /did not respond with block/);
    blocks = [encodeBlock(block(5)).subarray(0, 40)];
    await assert.rejects(() => peerBlocks.blocksFrom('p:1', commonID), ApplyPenaltyAndAbortError);
    blocks = [encodeBlock(block(5)), encodeBlock(block(6))];
    assert.deepEqual(
      (await peerBlocks.blocksFrom('p:1', commonID)).map((b) => b.header.height),
      [5, 6],
    );
    assert.ok(asked.every((a) => a.endsWith('@p:1')));
  });
});
