// The legacy chain (klayr-framework 0.12.3 engine/legacy): codec, store and endpoints, the
// getLegacyBlocksFromId procedure and the legacy chain handler, each against klayr-framework's own
// classes (LegacyEndpoint, LegacyNetworkEndpoint, LegacyChainHandler.init) over the same blocks,
// run on the pure-JS lisk-db of ../shared/tools/klayr-node.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { legacyEngineEndpoints } from '../../src/engine/endpoint/legacy.js';
import { initLegacyBrackets, LegacyChainHandler } from '../../src/engine/legacy/legacy_chain_handler.js';
import { LegacyStore } from '../../src/engine/legacy/legacy_store.js';
import type { ConnectedPeer, PeerResponse } from '../../src/engine/network/peers.js';
import { decodeLegacyBlock, encodeLegacyBlock, legacyBlockToJSON } from '../../src/lib/chain/legacy_block.js';
import * as legacySchemas from '../../src/lib/chain/legacy_schemas.js';
import { getLegacyBlocksFromIdRequestSchema } from '../../src/lib/chain/p2p_schemas.js';
import { compile } from '../../src/lib/codec/index.js';
import { legacySource } from '../../src/main/peer_sources.js';
import { registerLegacyProcedures } from '../../src/network/protocol/legacy_procedures.js';
import { Network } from '../../src/network/protocol/network.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { openDatabases } from '../../src/storage/database.js';
import { FakeP2P } from '../helpers/fake_p2p.js';
import type { GeneratedLegacyChain } from '../helpers/legacy_chain.js';
import { generateLegacyChain } from '../helpers/legacy_chain.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
require(resolve('../shared/tools/klayr-node/lisk-db-shim.cjs')).install();
/* eslint-disable @typescript-eslint/no-explicit-any */
const LEGACY = 'klayr-framework/dist-node/engine/legacy';
const klayrSchemas: any = require(`${LEGACY}/schemas.js`);
const klayrLegacyCodec: any = require(`${LEGACY}/codec.js`);
const { Storage: KlayrStorage }: any = require(`${LEGACY}/storage.js`);
const { LegacyEndpoint }: any = require(`${LEGACY}/endpoint.js`);
const { LegacyNetworkEndpoint }: any = require(`${LEGACY}/network_endpoint.js`);
const { LegacyChainHandler: KlayrLegacyChainHandler }: any = require(`${LEGACY}/legacy_chain_handler.js`);
const { Database: ShimDatabase }: any = require('@liskhq/lisk-db');
const klayrCodec: any = require('@klayr/codec').codec;
/* eslint-enable @typescript-eslint/no-explicit-any */

const silent = pino({ level: 'silent' });
const PEER = '127.0.0.9:7667';
const CHAIN = generateLegacyChain(260, 1000, 7);
const requestCodec = compile<{ blockID: Buffer; snapshotBlockID: Buffer }>(getLegacyBlocksFromIdRequestSchema);
const consensusSchemas: any = require('klayr-framework/dist-node/engine/consensus/schema.js');
const blocksOf = (answer: Buffer | undefined): Buffer[] =>
  (klayrCodec.decode(consensusSchemas.getBlocksFromIdResponseSchema, answer) as { blocks: Buffer[] }).blocks;

const opened: KestrelDatabases[] = [];
const kestrelStore = (): LegacyStore => {
  const dbs = openDatabases(tempDataPath());
  opened.push(dbs);
  return new LegacyStore(dbs.legacy);
};
after(async () => {
  for (const dbs of opened) await dbs.root.close();
});

/** Klayr's legacy.db (on the lisk-db shim) holding `blocks`, with the brackets' info written by Klayr's init on two starts. */
const klayrLegacyDB = async (chain: GeneratedLegacyChain, blocks = chain.encoded) => {
  const db = new ShimDatabase('');
  const storage = new KlayrStorage(db);
  for (const bytes of blocks) {
    const { block } = klayrLegacyCodec.decodeBlock(bytes);
    await storage.saveBlock(
      block.header.id,
      block.header.height,
      klayrLegacyCodec.encodeBlockHeader(block.header),
      block.payload,
    );
  }
  const handler = new KlayrLegacyChainHandler({
    legacyConfig: { sync: false, brackets: [chain.bracket] },
    network: {},
    logger: silent,
  });
  // two starts: the second one marks a bracket whose start block is stored as complete
  await handler.init({ db });
  await handler.init({ db });
  return db;
};

/** Kestrel's store holding `blocks`, with the brackets' info written as on two node starts. */
const kestrelLegacyStore = (chain: GeneratedLegacyChain, blocks = chain.blocks): LegacyStore => {
  const store = kestrelStore();
  store.saveBlocks(blocks);
  initLegacyBrackets(store, [chain.bracket]);
  initLegacyBrackets(store, [chain.bracket]);
  return store;
};

const outcome = async (call: () => unknown): Promise<unknown> => {
  try {
    return { result: JSON.parse(JSON.stringify(await call())) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe('the legacy codec', () => {
  it("uses klayr-framework's legacy schemas", () => {
    assert.deepEqual(legacySchemas.legacyBlockSchema, klayrSchemas.blockSchemaV2);
    assert.deepEqual(legacySchemas.legacyBlockHeaderSchema, klayrSchemas.blockHeaderSchemaV2);
    assert.deepEqual(legacySchemas.legacyTransactionSchema, klayrSchemas.transactionSchemaV2);
    assert.deepEqual(legacySchemas.legacyChainBracketInfoSchema, klayrSchemas.legacyChainBracketInfoSchema);
    assert.deepEqual(getLegacyBlocksFromIdRequestSchema, klayrSchemas.getLegacyBlocksFromIdRequestSchema);
  });

  it("decodes blocks to Klayr's IDs and JSON, and encodes them to Klayr's bytes", () => {
    for (const bytes of CHAIN.encoded.slice(0, 40)) {
      const ours = decodeLegacyBlock(bytes);
      const theirs = klayrLegacyCodec.decodeBlock(bytes).block;
      assert.deepEqual(ours.id, theirs.header.id);
      assert.deepEqual(
        klayrLegacyCodec.encodeBlock(theirs),
        encodeLegacyBlock({ header: ours.headerBytes, payload: ours.payload }),
      );
      assert.deepEqual(
        legacyBlockToJSON({ header: ours.headerBytes, payload: ours.payload }),
        klayrLegacyCodec.decodeBlockJSON(bytes).block,
      );
    }
  });
});

describe('the legacy endpoints', () => {
  it("answer every request as klayr-framework's LegacyEndpoint over the same blocks, errors included", async () => {
    const store = kestrelLegacyStore(CHAIN);
    const ours = legacyEngineEndpoints([CHAIN.bracket], store);
    const theirs = new LegacyEndpoint({ db: await klayrLegacyDB(CHAIN), legacyConfig: { brackets: [CHAIN.bracket] } });
    const withTxs = CHAIN.blocks.find((b) => b.payload.length > 1);
    const withoutTxs = CHAIN.blocks.find((b) => b.payload.length === 0);
    assert.ok(withTxs !== undefined && withoutTxs !== undefined);
    const transactionID = (await theirs.getTransactionsByBlockID({ params: { id: withTxs.id.toString('hex') } }))[1]
      .id as string;
    const ids: unknown[] = [
      withTxs.id.toString('hex'),
      withTxs.id.toString('hex').toUpperCase(),
      withoutTxs.id.toString('hex'),
      transactionID,
      CHAIN.snapshotBlockID.toString('hex'),
      'ff'.repeat(32),
      '',
      'abc',
      'zz',
      'ab',
      7,
      null,
      undefined,
    ];
    const heights: unknown[] = [
      1000,
      1100,
      1259,
      1260,
      999,
      0,
      -1,
      1100.7,
      2 ** 32,
      2 ** 32 + 1100,
      '1100',
      null,
      undefined,
    ];
    const calls: [string, Record<string, unknown>][] = [
      ...ids.flatMap((id): [string, Record<string, unknown>][] =>
        ['getTransactionByID', 'getTransactionsByBlockID', 'getBlockByID'].map((m) => [
          m,
          id === undefined ? {} : { id },
        ]),
      ),
      ...heights.map((height): [string, Record<string, unknown>] => [
        'getBlockByHeight',
        height === undefined ? {} : { height },
      ]),
      ['getLegacyBrackets', {}],
    ];
    const kinds = new Set<string>();
    for (const [method, params] of calls) {
      const expected = await outcome(() => theirs[method]({ params }));
      const actual = await outcome(() => ours[method]?.handler({ params, transport: 'http' }));
      assert.deepEqual(actual, expected, `${method} ${JSON.stringify(params)}`);
      kinds.add(`${method}:${'error' in (expected as object) ? 'error' : 'result'}`);
    }
    // every endpoint both answered and refused
    assert.equal(kinds.size, 9, [...kinds].join(' '));
  });

  it('getLegacyBrackets shows the sync progress of each bracket of the config', async () => {
    const store = kestrelStore();
    const other = generateLegacyChain(5, 50, 3);
    initLegacyBrackets(store, [CHAIN.bracket, other.bracket]);
    const theirs = new LegacyEndpoint({
      db: await klayrLegacyDB(CHAIN, []),
      legacyConfig: { brackets: [CHAIN.bracket] },
    });
    const brackets = legacyEngineEndpoints([CHAIN.bracket, other.bracket], store).getLegacyBrackets?.handler({
      params: {},
      transport: 'http',
    });
    assert.deepEqual(brackets, [
      {
        startHeight: 1000,
        snapshotBlockHeight: 1260,
        lastBlockHeight: 1260,
        snapshotBlockID: CHAIN.bracket.snapshotBlockID,
      },
      { startHeight: 50, snapshotBlockHeight: 55, lastBlockHeight: 55, snapshotBlockID: other.bracket.snapshotBlockID },
    ]);
    assert.deepEqual([(brackets as unknown[])[0]], await theirs.getLegacyBrackets({}));
  });
});

/** Kestrel's procedure and klayr-framework's LegacyNetworkEndpoint, each over its own store of the same blocks. */
const procedurePair = async (chain: GeneratedLegacyChain) => {
  const p2p = new FakeP2P();
  const network = new Network(p2p, silent);
  registerLegacyProcedures(network, legacySource(kestrelLegacyStore(chain)), silent);
  const penalties: { peerId: string; penalty: number }[] = [];
  const klayr = new LegacyNetworkEndpoint({
    network: { applyPenaltyOnPeer: (p: { peerId: string; penalty: number }) => penalties.push(p) },
    logger: silent,
    db: await klayrLegacyDB(chain),
  });
  return {
    p2p,
    penalties,
    ours: (data: Buffer | undefined) => p2p.call('getLegacyBlocksFromId', data, PEER),
    theirs: (data: Buffer | undefined): Promise<Buffer> => klayr.handleRPCGetLegacyBlocksFromID(data, PEER),
  };
};

describe('getLegacyBlocksFromId', () => {
  const request = (blockID: Buffer, snapshotBlockID = CHAIN.snapshotBlockID) =>
    requestCodec.encode({ blockID, snapshotBlockID });

  it("answers Klayr's bytes: 101 blocks below the requested one, highest first, down to the bracket's start", async () => {
    const pair = await procedurePair(CHAIN);
    const at = (h: number) => (CHAIN.blocks[h - CHAIN.startHeight] as { id: Buffer }).id;
    const cases = [
      CHAIN.snapshotBlockID,
      at(1259),
      at(1159),
      at(1120),
      at(1101),
      at(1100),
      at(1050),
      at(1001),
      at(1000),
      Buffer.alloc(32, 9),
    ];
    const sizes: number[] = [];
    for (const blockID of cases) {
      const expected = await pair.theirs(request(blockID));
      assert.deepEqual(await pair.ours(request(blockID)), expected, blockID.toString('hex'));
      sizes.push(blocksOf(expected).length);
    }
    assert.deepEqual(sizes, [101, 101, 101, 101, 101, 100, 50, 1, 0, 0]);
    const top = blocksOf(await pair.ours(request(CHAIN.snapshotBlockID)));
    assert.deepEqual(top[0], CHAIN.encoded.at(-1));
    assert.deepEqual(pair.p2p.penalties, []);
    assert.deepEqual(pair.penalties, []);
  });

  it('refuses an unknown snapshot block and a malformed request with penalty 100, as Klayr', async () => {
    const pair = await procedurePair(CHAIN);
    const unknown = request(CHAIN.snapshotBlockID, Buffer.alloc(32, 1));
    const klayrError = await pair.theirs(unknown).then(
      () => 'answered',
      (e: Error) => e.message,
    );
    await assert.rejects(pair.ours(unknown), { message: klayrError });
    const short = klayrCodec.encode(
      {
        ...klayrSchemas.getLegacyBlocksFromIdRequestSchema,
        properties: {
          blockID: { dataType: 'bytes', fieldNumber: 1 },
          snapshotBlockID: { dataType: 'bytes', fieldNumber: 2 },
        },
      },
      { blockID: Buffer.alloc(31), snapshotBlockID: CHAIN.snapshotBlockID },
    );
    for (const bad of [short, Buffer.from('not protobuf'), undefined]) {
      await assert.rejects(pair.ours(bad));
      await assert.rejects(pair.theirs(bad));
    }
    assert.deepEqual(
      pair.p2p.penalties,
      [100, 100, 100, 100].map((penalty) => ({ peerId: PEER, penalty })),
    );
    assert.deepEqual(pair.penalties, pair.p2p.penalties);
  });

  it('penalises more than 100 requests per peer in 10 s by 10 each, as Klayr', async () => {
    const pair = await procedurePair(generateLegacyChain(3, 10, 2));
    const chain = generateLegacyChain(3, 10, 2);
    const data = requestCodec.encode({ blockID: chain.snapshotBlockID, snapshotBlockID: chain.snapshotBlockID });
    for (let i = 0; i < 102; i++) {
      await pair.ours(data);
      await pair.theirs(data);
    }
    assert.deepEqual(
      pair.p2p.penalties,
      [10, 10].map((penalty) => ({ peerId: PEER, penalty })),
    );
    assert.deepEqual(pair.penalties, pair.p2p.penalties);
  });

  it('is a known procedure: a peer asking for it is not refused as an unknown one', async () => {
    const pair = await procedurePair(CHAIN);
    await pair.ours(request(CHAIN.snapshotBlockID));
    await assert.rejects(pair.p2p.call('getLegacyBlocks', undefined), /is not permitted/);
    assert.deepEqual(pair.p2p.penalties, [{ peerId: PEER, penalty: 100 }]);
  });
});

/** Peers for the handler: each serves with its own function; every request is recorded. */
const fakePeers = (
  serve: Record<string, (data: Buffer | undefined) => Promise<Buffer>>,
  announce: (peerId: string) => Buffer[] | undefined = () => [CHAIN.snapshotBlockID],
) => {
  const requests: { peerId: string; blockID: Buffer }[] = [];
  const penalties: { peerId: string; penalty: number }[] = [];
  return {
    requests,
    penalties,
    peers: {
      connectedPeers: (): ConnectedPeer[] =>
        Object.keys(serve).map((peerId) => {
          const legacy = announce(peerId);
          return legacy === undefined ? { peerId } : { peerId, options: { height: 1, legacy } };
        }),
      requestFromPeer: async (peerId: string, _procedure: string, data?: Buffer): Promise<PeerResponse> => {
        requests.push({ peerId, blockID: requestCodec.decode(data ?? Buffer.alloc(0)).blockID });
        const answer = serve[peerId];
        if (answer === undefined) throw new Error('no such peer');
        return { peerId, data: await answer(data) };
      },
      applyPenalty: (peerId: string, penalty: number) => void penalties.push({ peerId, penalty }),
    },
  };
};

/** A Klayr node's answers (LegacyNetworkEndpoint over the whole chain). */
const klayrServer = async (chain: GeneratedLegacyChain) => {
  const klayr = new LegacyNetworkEndpoint({
    network: { applyPenaltyOnPeer: () => undefined },
    logger: silent,
    db: await klayrLegacyDB(chain),
  });
  return (data: Buffer | undefined): Promise<Buffer> => klayr.handleRPCGetLegacyBlocksFromID(data, PEER);
};

/** Runs a handler until it announces a synced bracket (at most 20 s), then stops it; what it announced. */
const syncUntilAnnounced = async (
  parts: Omit<ConstructorParameters<typeof LegacyChainHandler>[0], 'onSynced' | 'logger' | 'waits'>,
): Promise<readonly Buffer[]> => {
  let announce: (ids: readonly Buffer[]) => void = () => undefined;
  const announced = new Promise<readonly Buffer[]>((done) => {
    announce = done;
  });
  const handler = new LegacyChainHandler({
    ...parts,
    logger: silent,
    onSynced: announce,
    waits: { failed: 10, spacing: 0 },
  });
  handler.start();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      announced,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('legacy sync did not finish in 20 s')), 20_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await handler.stop();
  }
};

const assertHoldsChain = (store: LegacyStore, chain: GeneratedLegacyChain) => {
  for (const block of chain.blocks) {
    const stored = store.blockByHeight(block.header.height);
    assert.ok(stored !== undefined, `height ${block.header.height} is stored`);
    assert.deepEqual(
      encodeLegacyBlock(stored),
      encodeLegacyBlock({ header: block.headerBytes, payload: block.payload }),
    );
  }
  assert.equal(store.idAtHeight(chain.startHeight - 1), undefined);
  assert.equal(store.idAtHeight(chain.snapshotHeight), undefined);
};

describe('the legacy chain handler', () => {
  it('syncs a bracket from a Klayr peer down to its start height, then announces it', async () => {
    const store = kestrelStore();
    initLegacyBrackets(store, [CHAIN.bracket]);
    const { peers, requests, penalties } = fakePeers({ [PEER]: await klayrServer(CHAIN) });
    const announced = await syncUntilAnnounced({ brackets: [CHAIN.bracket], store, peers });
    assertHoldsChain(store, CHAIN);
    assert.deepEqual(announced, [CHAIN.snapshotBlockID]);
    assert.deepEqual(store.bracket(CHAIN.snapshotBlockID), {
      startHeight: 1000,
      snapshotBlockHeight: 1260,
      lastBlockHeight: 1000,
    });
    // 260 blocks: 101 + 101 + 58, asked from the snapshot block, then from the lowest stored one
    assert.deepEqual(
      requests.map((r) => r.blockID),
      [CHAIN.snapshotBlockID, (CHAIN.blocks[159] as { id: Buffer }).id, (CHAIN.blocks[58] as { id: Buffer }).id],
    );
    assert.deepEqual(penalties, []);
    // the endpoints answer as Klayr's over the same blocks
    const theirs = new LegacyEndpoint({ db: await klayrLegacyDB(CHAIN), legacyConfig: { brackets: [CHAIN.bracket] } });
    const ours = legacyEngineEndpoints([CHAIN.bracket], store);
    for (const [method, params] of [
      ['getLegacyBrackets', {}],
      ['getBlockByHeight', { height: 1000 }],
      ['getBlockByID', { id: (CHAIN.blocks[200] as { id: Buffer }).id.toString('hex') }],
    ] as const)
      assert.deepEqual(
        await outcome(() => ours[method]?.handler({ params, transport: 'ws' })),
        await outcome(() => theirs[method]({ params })),
      );
  });

  it('resumes after a restart from the lowest block stored', async () => {
    const store = kestrelStore();
    initLegacyBrackets(store, [CHAIN.bracket]);
    const klayr = await klayrServer(CHAIN);
    let handler: LegacyChainHandler | undefined;
    let served = 0;
    const first = fakePeers({
      [PEER]: async (data) => {
        const answer = await klayr(data);
        if (++served === 2) void handler?.stop();
        return answer;
      },
    });
    handler = new LegacyChainHandler({
      brackets: [CHAIN.bracket],
      store,
      peers: first.peers,
      logger: silent,
      waits: { failed: 10, spacing: 0 },
    });
    handler.start();
    while (served < 2) await new Promise((r) => setTimeout(r, 5));
    await handler.stop();
    // the stop came while the second batch was on its way: only the first one is stored
    const progress = store.bracket(CHAIN.snapshotBlockID)?.lastBlockHeight ?? 0;
    assert.equal(progress, 1159);
    assert.equal(store.idAtHeight(progress - 1), undefined);
    assert.ok(store.idAtHeight(progress) !== undefined);
    // a new start: Klayr's init keeps the progress of an incomplete bracket
    initLegacyBrackets(store, [CHAIN.bracket]);
    const second = fakePeers({ [PEER]: klayr });
    assert.deepEqual(await syncUntilAnnounced({ brackets: [CHAIN.bracket], store, peers: second.peers }), [
      CHAIN.snapshotBlockID,
    ]);
    assert.deepEqual(second.requests[0]?.blockID, (CHAIN.blocks[progress - CHAIN.startHeight] as { id: Buffer }).id);
    assertHoldsChain(store, CHAIN);
    // and a complete bracket is announced at once on the next start, without a request
    const third = fakePeers({ [PEER]: klayr });
    assert.deepEqual(await syncUntilAnnounced({ brackets: [CHAIN.bracket], store, peers: third.peers }), [
      CHAIN.snapshotBlockID,
    ]);
    assert.equal(third.requests.length, 0);
  });

  it('penalises a peer whose blocks are not the chain below the stored ones, stores none of them, and syncs from another', async () => {
    const klayr = await klayrServer(CHAIN);
    const reencode = (blocks: Buffer[]) =>
      klayrCodec.encode(consensusSchemas.getBlocksFromIdResponseSchema, { blocks }) as Buffer;
    const top = await klayr(
      requestCodec.encode({ blockID: CHAIN.snapshotBlockID, snapshotBlockID: CHAIN.snapshotBlockID }),
    );
    const tampers: Record<string, (blocks: Buffer[]) => Buffer[]> = {
      'a transaction changed': (blocks) =>
        blocks.map((bytes) => {
          const block = decodeLegacyBlock(bytes);
          if (block.payload.length === 0) return bytes;
          const payload = block.payload.map((tx) =>
            Buffer.concat([tx.subarray(0, -1), Buffer.from([tx.at(-1) === 0 ? 1 : 0])]),
          );
          return encodeLegacyBlock({ header: block.headerBytes, payload });
        }),
      'a block left out': (blocks) => blocks.filter((_, i) => i !== 40),
      'the highest block left out': (blocks) => blocks.slice(1),
      'the same blocks whatever was asked': () => blocksOf(top),
      nothing: () => [],
    };
    for (const [what, tamper] of Object.entries(tampers)) {
      const store = kestrelStore();
      initLegacyBrackets(store, [CHAIN.bracket]);
      const { peers, penalties, requests } = fakePeers({
        bad: async (data) => reencode(tamper(blocksOf(await klayr(data)))),
        good: klayr,
      });
      // the bad peer first, then each in turn
      let draw = 0;
      const random = () => (draw++ % 2 === 0 ? 0 : 0.99);
      await syncUntilAnnounced({ brackets: [CHAIN.bracket], store, peers, random });
      assert.ok(penalties.length > 0, what);
      assert.ok(
        penalties.every((p) => p.peerId === 'bad' && p.penalty === 100),
        what,
      );
      assert.ok(
        requests.some((r) => r.peerId === 'good'),
        what,
      );
      assertHoldsChain(store, CHAIN);
    }
  });

  it('asks only peers that announce the bracket, and waits while there is none', async () => {
    const store = kestrelStore();
    initLegacyBrackets(store, [CHAIN.bracket]);
    const { peers, requests } = fakePeers(
      { 'no-options': async () => Buffer.alloc(0), 'other-bracket': async () => Buffer.alloc(0) },
      (peerId) => (peerId === 'no-options' ? undefined : [Buffer.alloc(32, 1)]),
    );
    const handler = new LegacyChainHandler({
      brackets: [CHAIN.bracket],
      store,
      peers,
      logger: silent,
      waits: { failed: 10_000, spacing: 0 },
    });
    handler.start();
    await new Promise((r) => setTimeout(r, 30));
    const began = Date.now();
    await handler.stop();
    assert.ok(Date.now() - began < 1000, 'a stop ends the wait');
    assert.equal(requests.length, 0);
    assert.deepEqual(handler.synced(), []);
    assert.equal(store.bracket(CHAIN.snapshotBlockID)?.lastBlockHeight, CHAIN.snapshotHeight);
  });

  it('syncs several brackets at once, their requests spaced apart all together, and announces each', async () => {
    const other = generateLegacyChain(150, 100, 5);
    const store = kestrelStore();
    initLegacyBrackets(store, [CHAIN.bracket, other.bracket]);
    const servers = { chain: await klayrServer(CHAIN), other: await klayrServer(other) };
    const sentAt: number[] = [];
    const { peers } = fakePeers(
      {
        [PEER]: async (data) => {
          sentAt.push(performance.now());
          const { snapshotBlockID } = requestCodec.decode(data ?? Buffer.alloc(0));
          return (snapshotBlockID.equals(CHAIN.snapshotBlockID) ? servers.chain : servers.other)(data);
        },
      },
      () => [CHAIN.snapshotBlockID, other.snapshotBlockID],
    );
    const announcements: (readonly Buffer[])[] = [];
    const both = new Promise<void>((done) => {
      const handler = new LegacyChainHandler({
        brackets: [CHAIN.bracket, other.bracket],
        store,
        peers,
        logger: silent,
        waits: { failed: 10, spacing: 40 },
        onSynced: (ids) => {
          announcements.push(ids);
          if (ids.length === 2) void handler.stop().then(done);
        },
      });
      handler.start();
    });
    await both;
    assertHoldsChain(store, CHAIN);
    assertHoldsChain(store, other);
    assert.equal(sentAt.length, 5);
    // measured where the peer sees each request, after a delivery delay of its own: each gap at least half the
    // spacing (unspaced requests come within a few ms), and all of them together the spacing each, give or take 10 ms
    for (let i = 1; i < sentAt.length; i++)
      assert.ok((sentAt[i] as number) - (sentAt[i - 1] as number) >= 20, `request ${i} came too soon`);
    assert.ok((sentAt.at(-1) as number) - (sentAt[0] as number) >= 4 * 40 - 10, 'the requests came too close together');
    assert.deepEqual(
      announcements
        .at(-1)
        ?.map((id) => id.toString('hex'))
        .sort(),
      [CHAIN.bracket.snapshotBlockID, other.bracket.snapshotBlockID].sort(),
    );
  });
});
