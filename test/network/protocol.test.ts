import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { Block } from '../../src/lib/chain/block.js';
import { blockHeaderID, decodeBlock } from '../../src/lib/chain/block.js';
import * as schemas from '../../src/lib/chain/p2p_schemas.js';
import type { ChainSource } from '../../src/network/protocol/block_procedures.js';
import { BLOCKS_PER_REQUEST, registerBlockProcedures } from '../../src/network/protocol/block_procedures.js';
import { Network } from '../../src/network/protocol/network.js';
import { TransactionBroadcaster } from '../../src/network/protocol/transaction_broadcaster.js';
import type { TransactionSource } from '../../src/network/protocol/transaction_procedures.js';
import { registerTransactionProcedures } from '../../src/network/protocol/transaction_procedures.js';
import { devnetFile } from '../helpers/devnet.js';
import { FakeP2P } from '../helpers/fake_p2p.js';
import { klayrCodec } from '../helpers/klayr.js';

const logger = pino({ level: 'silent' });
const PEER = '127.0.0.9:7667';
const id = (n: number): Buffer => createHash('sha256').update(`block ${n}`).digest();
const genesisBytes = readFileSync(devnetFile('genesis_block.blob'));

/** A chain of 200 fake blocks: bytes `block <h>`, IDs sha256 of that. */
const fakeChain = (height = 200): ChainSource => ({
  lastBlockBytes: () => Buffer.from(`block ${height}`),
  heightOfID: (blockID) => {
    for (let h = 0; h <= height; h++) if (id(h).equals(blockID)) return h;
    return undefined;
  },
  blockBytesAtHeight: (h) => (h <= height ? Buffer.from(`block ${h}`) : undefined),
  highestKnownID: (ids) => {
    let best: { h: number; id: Buffer } | undefined;
    for (const candidate of ids)
      for (let h = 0; h <= height; h++)
        if (id(h).equals(candidate) && (best === undefined || h > best.h)) best = { h, id: candidate };
    return best?.id;
  },
});

const setup = (chain = fakeChain(), received: Block[] = [], syncing = false) => {
  const p2p = new FakeP2P();
  const network = new Network(p2p, logger);
  registerBlockProcedures(
    network,
    chain,
    { syncing: () => syncing, receive: async (block) => void received.push(block) },
    logger,
  );
  return { p2p, network };
};

const require = createRequire(import.meta.url);
const requireFramework = (path: string) => require(`klayr-framework/dist-node/${path}`);

describe("the network's log of its peers", () => {
  it('a ban at warn level, connections and closes at debug, as klayr-framework logs them', () => {
    const lines: { level: number; msg: string; peerId?: string; kind?: string; code?: number }[] = [];
    const capture = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const p2p = new FakeP2P();
    new Network(p2p, capture);
    const peer = { peerId: PEER, ipAddress: '127.0.0.9', port: 7667 };
    p2p.emit('peerConnected', peer, 'outbound');
    p2p.emit('peerClosed', peer, 'outbound', 1006, 'Connection was closed abnormally');
    p2p.emit('peerBanned', PEER);
    assert.deepEqual(
      lines.map(({ level, msg, peerId, kind, code }) => ({ level, msg, peerId, kind, code })),
      [
        { level: 20, msg: 'Peer connected (outbound)', peerId: PEER, kind: 'outbound', code: undefined },
        {
          level: 20,
          msg: 'Peer connection closed (outbound): 1006 Connection was closed abnormally',
          peerId: PEER,
          kind: 'outbound',
          code: 1006,
        },
        {
          level: 40,
          msg: `Peer ${PEER} has been banned for 24 hours: it broke the protocol or lost its reputation`,
          peerId: PEER,
          kind: undefined,
          code: undefined,
        },
      ],
    );
  });
});

describe('the framework procedures peers may call', () => {
  it('refuses an unknown procedure and an unknown event with penalty 100, as klayr-framework does', async () => {
    const { p2p } = setup();
    await assert.rejects(p2p.call('getSecrets', undefined), /Requested procedure "getSecrets" is not permitted/);
    p2p.post('postSecrets', Buffer.alloc(1));
    assert.deepEqual(p2p.penalties, [
      { peerId: PEER, penalty: 100 },
      { peerId: PEER, penalty: 100 },
    ]);
  });

  it('getLastBlock answers the tip and penalises more than 10 calls per peer in 10 s by 10 each', async () => {
    const { p2p } = setup();
    for (let i = 0; i < 12; i++) assert.deepEqual(await p2p.call('getLastBlock', undefined), Buffer.from('block 200'));
    assert.deepEqual(p2p.penalties, [
      { peerId: PEER, penalty: 10 },
      { peerId: PEER, penalty: 10 },
    ]);
  });

  it('getBlocksFromId answers the 53 blocks after the given one, fewer at the tip', async () => {
    const { p2p } = setup();
    const request = klayrCodec.codec.encode(schemas.getBlocksFromIdRequestSchema, { blockId: id(10) });
    const answer = await p2p.call('getBlocksFromId', request);
    const { blocks } = klayrCodec.codec.decode(schemas.getBlocksFromIdResponseSchema, answer) as { blocks: Buffer[] };
    assert.equal(blocks.length, BLOCKS_PER_REQUEST);
    assert.deepEqual(blocks[0], Buffer.from('block 11'));
    assert.deepEqual(blocks.at(-1), Buffer.from('block 63'));
    const atTip = await p2p.call(
      'getBlocksFromId',
      klayrCodec.codec.encode(schemas.getBlocksFromIdRequestSchema, { blockId: id(190) }),
    );
    assert.equal(
      (klayrCodec.codec.decode(schemas.getBlocksFromIdResponseSchema, atTip) as { blocks: Buffer[] }).blocks.length,
      10,
    );
    assert.deepEqual(p2p.penalties, []);
  });

  it('getBlocksFromId of an unknown block is an error without penalty; a malformed request costs 100', async () => {
    const { p2p } = setup();
    const unknown = klayrCodec.codec.encode(schemas.getBlocksFromIdRequestSchema, { blockId: Buffer.alloc(32, 7) });
    await assert.rejects(p2p.call('getBlocksFromId', unknown), /was not found/);
    assert.equal(p2p.penalties.length, 0);
    const short = klayrCodec.codec.encode(
      { ...schemas.getBlocksFromIdRequestSchema, properties: { blockId: { dataType: 'bytes', fieldNumber: 1 } } },
      { blockId: Buffer.alloc(31) },
    );
    await assert.rejects(p2p.call('getBlocksFromId', short));
    await assert.rejects(p2p.call('getBlocksFromId', Buffer.from('not protobuf at all')));
    await assert.rejects(p2p.call('getBlocksFromId', undefined));
    assert.deepEqual(
      p2p.penalties.map((p) => p.penalty),
      [100, 100, 100],
    );
  });

  it('getHighestCommonBlock answers the highest known ID, an empty ID when none, and penalises repeated IDs', async () => {
    const { p2p } = setup();
    const ask = async (ids: Buffer[]) =>
      klayrCodec.codec.decode(
        schemas.getHighestCommonBlockResponseSchema,
        await p2p.call(
          'getHighestCommonBlock',
          klayrCodec.codec.encode(schemas.getHighestCommonBlockRequestSchema, { ids }),
        ),
      ) as { id: Buffer };
    assert.deepEqual((await ask([id(3), Buffer.alloc(32, 1), id(150), id(20)])).id, id(150));
    assert.deepEqual((await ask([Buffer.alloc(32, 1)])).id, Buffer.alloc(0));
    assert.deepEqual(p2p.penalties, []);
    assert.deepEqual((await ask([id(5), id(5)])).id, id(5));
    assert.deepEqual(p2p.penalties, [{ peerId: PEER, penalty: 100 }]);
    await assert.rejects(
      p2p.call(
        'getHighestCommonBlock',
        klayrCodec.codec.encode(schemas.getHighestCommonBlockRequestSchema, { ids: [] }),
      ),
    );
  });

  it('postBlock hands a decodable block to the receiver, penalises what does not decode, and ignores blocks while syncing', async () => {
    const received: Block[] = [];
    const { p2p } = setup(fakeChain(), received);
    p2p.post('postBlock', klayrCodec.codec.encode(schemas.postBlockEventSchema, { block: genesisBytes }));
    await new Promise((r) => setImmediate(r));
    assert.equal(received.length, 1);
    assert.deepEqual(blockHeaderID((received[0] as Block).header), blockHeaderID(decodeBlock(genesisBytes).header));
    p2p.post('postBlock', klayrCodec.codec.encode(schemas.postBlockEventSchema, { block: Buffer.from('garbage') }));
    p2p.post('postBlock', Buffer.from([0xff, 0xff, 0xff]));
    p2p.post('postBlock', undefined);
    assert.deepEqual(
      p2p.penalties.map((p) => p.penalty),
      [100, 100, 100],
    );
    const whileSyncing: Block[] = [];
    const syncing = setup(fakeChain(), whileSyncing, true);
    syncing.p2p.post('postBlock', klayrCodec.codec.encode(schemas.postBlockEventSchema, { block: genesisBytes }));
    await new Promise((r) => setImmediate(r));
    assert.equal(whileSyncing.length, 0);
  });

  it('uses the schemas of klayr-framework 0.12.3', () => {
    const framework = requireFramework('engine/consensus/schema.js');
    const generator = requireFramework('engine/generator/schemas.js');
    const legacy = requireFramework('engine/legacy/schemas.js');
    assert.deepEqual(schemas.getBlocksFromIdRequestSchema, framework.getBlocksFromIdRequestSchema);
    assert.deepEqual(schemas.getBlocksFromIdResponseSchema, framework.getBlocksFromIdResponseSchema);
    assert.deepEqual(schemas.getHighestCommonBlockRequestSchema, framework.getHighestCommonBlockRequestSchema);
    assert.deepEqual(schemas.getHighestCommonBlockResponseSchema, framework.getHighestCommonBlockResponseSchema);
    assert.deepEqual(schemas.postBlockEventSchema, framework.postBlockEventSchema);
    assert.deepEqual(schemas.getTransactionRequestSchema, generator.getTransactionRequestSchema);
    assert.deepEqual(schemas.getTransactionsResponseSchema, generator.getTransactionsResponseSchema);
    assert.deepEqual(schemas.postTransactionsAnnouncementSchema, generator.postTransactionsAnnouncementSchema);
    assert.deepEqual(schemas.getLegacyBlocksFromIdRequestSchema, legacy.getLegacyBlocksFromIdRequestSchema);
  });
});

const txID = (n: number): Buffer => createHash('sha256').update(`tx ${n}`).digest();

const fakePool = (
  pooled: Map<string, Buffer>,
  committed: Map<string, Buffer>,
  received: Buffer[],
): TransactionSource => ({
  bytesByID: (txId) => pooled.get(txId.toString('hex')) ?? committed.get(txId.toString('hex')),
  knows: (txId) => pooled.has(txId.toString('hex')) || committed.has(txId.toString('hex')),
  processable: (limit) => [...pooled.values()].slice(0, limit),
  receive: async (bytes) => {
    received.push(bytes);
    return bytes.toString().startsWith('bad') ? 'invalid' : 'added';
  },
});

describe('transactions between peers', () => {
  const txSetup = () => {
    const pooled = new Map<string, Buffer>();
    for (let i = 0; i < 120; i++) pooled.set(txID(i).toString('hex'), Buffer.from(`tx ${i}`));
    const committed = new Map([[txID(500).toString('hex'), Buffer.from('tx 500')]]);
    const received: Buffer[] = [];
    const announced: Buffer[][] = [];
    const p2p = new FakeP2P();
    const network = new Network(p2p, logger);
    registerTransactionProcedures(network, fakePool(pooled, committed, received), logger, (ids) =>
      announced.push([...ids]),
    );
    return { p2p, network, pooled, received, announced };
  };
  const decodeTxs = (bytes: Buffer | undefined): Buffer[] =>
    (klayrCodec.codec.decode(schemas.getTransactionsResponseSchema, bytes) as { transactions: Buffer[] }).transactions;

  it('getTransactions without data answers up to 100 processable transactions; with IDs, those of the pool and the chain', async () => {
    const { p2p } = txSetup();
    assert.equal(decodeTxs(await p2p.call('getTransactions', undefined)).length, 100);
    const ids = [txID(1), txID(500), txID(999)];
    const answer = await p2p.call(
      'getTransactions',
      klayrCodec.codec.encode(schemas.getTransactionRequestSchema, { transactionIds: ids }),
    );
    assert.deepEqual(decodeTxs(answer).map(String), ['tx 1', 'tx 500']);
    assert.deepEqual(p2p.penalties, []);
  });

  it('getTransactions with repeated or more than 100 IDs costs 100; more than 3 calls in 10 s cost 10 each', async () => {
    const { p2p } = txSetup();
    const enc = (ids: Buffer[]) =>
      klayrCodec.codec.encode(schemas.getTransactionRequestSchema, { transactionIds: ids });
    await assert.rejects(p2p.call('getTransactions', enc([txID(1), txID(1)])));
    await assert.rejects(p2p.call('getTransactions', enc(Array.from({ length: 101 }, (_, i) => txID(i)))));
    await p2p.call('getTransactions', undefined);
    await p2p.call('getTransactions', undefined);
    assert.deepEqual(
      p2p.penalties.map((p) => p.penalty),
      [100, 100, 10],
    );
  });

  it('an announcement of unknown IDs fetches them from the announcing peer and pools them', async () => {
    const { p2p, received, announced } = txSetup();
    const asked: Buffer[][] = [];
    p2p.answer = async (procedure, data, peerId) => {
      assert.equal(procedure, 'getTransactions');
      assert.equal(peerId, PEER);
      const { transactionIds } = klayrCodec.codec.decode(schemas.getTransactionRequestSchema, data) as {
        transactionIds: Buffer[];
      };
      asked.push(transactionIds);
      return {
        peerId,
        data: klayrCodec.codec.encode(schemas.getTransactionsResponseSchema, {
          transactions: transactionIds.map((_, i) => Buffer.from(`new ${i}`)),
        }),
      };
    };
    const ids = [txID(1), txID(700), txID(701)];
    p2p.post(
      'postTransactionsAnnouncement',
      klayrCodec.codec.encode(schemas.postTransactionsAnnouncementSchema, { transactionIds: ids }),
    );
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(asked, [[txID(700), txID(701)]]);
    assert.deepEqual(received.map(String), ['new 0', 'new 1']);
    assert.deepEqual(announced, [ids]);
    assert.deepEqual(p2p.penalties, []);
  });

  it('an announcement that breaks its schema costs 100; a peer answering garbage costs 100', async () => {
    const { p2p } = txSetup();
    p2p.post(
      'postTransactionsAnnouncement',
      klayrCodec.codec.encode(schemas.postTransactionsAnnouncementSchema, { transactionIds: [] }),
    );
    assert.deepEqual(
      p2p.penalties.map((p) => p.penalty),
      [100],
    );
    p2p.answer = async (_procedure, _data, peerId) => ({ peerId, data: Buffer.from([0xff, 0x01]) });
    p2p.post(
      'postTransactionsAnnouncement',
      klayrCodec.codec.encode(schemas.postTransactionsAnnouncementSchema, { transactionIds: [txID(900)] }),
      '127.0.0.8:7667',
    );
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(p2p.penalties, [
      { peerId: PEER, penalty: 100 },
      { peerId: '127.0.0.8:7667', penalty: 100 },
    ]);
  });

  it('the broadcaster announces queued IDs still pooled, 100 at a time, to every peer', () => {
    const p2p = new FakeP2P();
    const network = new Network(p2p, logger);
    const inPool = new Set(Array.from({ length: 150 }, (_, i) => txID(i).toString('hex')));
    inPool.delete(txID(3).toString('hex'));
    const broadcaster = new TransactionBroadcaster(network, (txId) => inPool.has(txId.toString('hex')));
    for (let i = 0; i < 150; i++) broadcaster.enqueue(txID(i));
    broadcaster.release();
    broadcaster.release();
    broadcaster.release();
    assert.deepEqual(
      p2p.sent.map((s) => [s.event, s.to]),
      [
        ['postTransactionsAnnouncement', 'all'],
        ['postTransactionsAnnouncement', 'all'],
      ],
    );
    const batches = p2p.sent.map(
      (s) =>
        (klayrCodec.codec.decode(schemas.postTransactionsAnnouncementSchema, s.data) as { transactionIds: Buffer[] })
          .transactionIds,
    );
    assert.equal(batches[0]?.length, 100);
    assert.equal(batches[1]?.length, 49);
    assert.ok(!batches.flat().some((b) => b.equals(txID(3))));
  });
});
