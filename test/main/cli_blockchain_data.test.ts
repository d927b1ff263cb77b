import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { create, list } from 'tar';
import { BlockStore } from '../../src/engine/chain/block_store.js';
import { DataPathLock } from '../../src/main/lock/data_path_lock.js';
import { blockStoreHash, NODE_RECORDS } from '../../src/storage/chain_data.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { closeDatabases, openDatabases } from '../../src/storage/database.js';
import { readCommittedState } from '../../src/storage/state_roots.js';
import { tableKey } from '../../src/storage/tables.js';
import { BEHIND_CACHE, BEHIND_CHAIN } from '../helpers/behind_chain.js';
import { runCLI, runCLIWith } from '../helpers/cli.js';
import { spawnKestrel } from '../helpers/kestrel_process.js';
import { call, keysFile } from '../helpers/klayr_peer_world.js';
import { copyChain, offlineChain, offlineChainConfigFile } from '../helpers/offline_chain.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const CHAIN = BEHIND_CHAIN;
const CACHE = BEHIND_CACHE;

const withDbs = async <T>(dataPath: string, fn: (dbs: KestrelDatabases) => T): Promise<T> => {
  const dbs = openDatabases(dataPath, { writer: false });
  try {
    return fn(dbs);
  } finally {
    await closeDatabases(dbs);
  }
};

/** One entry in each of the node's own tables, under a key of `fill` bytes, its value naming `owner`. */
const writeNodeRecords = (dataPath: string, owner: string, fill = 7): Promise<void> =>
  withDbs(dataPath, (dbs) => {
    for (const table of NODE_RECORDS)
      dbs[table.db].putSync(tableKey(table, Buffer.alloc(20, fill)), Buffer.from(owner));
  });

/** The node's own records under keys of `fill` bytes, as `table prefix -> value`. */
const nodeRecords = (dataPath: string, fill = 7): Promise<Record<string, string | undefined>> =>
  withDbs(dataPath, (dbs) =>
    Object.fromEntries(
      NODE_RECORDS.map((t) => [
        t.prefix.toString(),
        dbs[t.db].getBinary(tableKey(t, Buffer.alloc(20, fill)))?.toString(),
      ]),
    ),
  );

const chainSummary = (dataPath: string) =>
  withDbs(dataPath, (dbs) => ({
    tip: new BlockStore(dbs).lastHeight(),
    blocks: blockStoreHash(dbs).toString('hex'),
    stateRoot: readCommittedState(dbs)?.root.toString('hex'),
    stateEntries: (dbs.state.getStats() as { entryCount: number }).entryCount,
  }));

const ok = (result: { code: number | null; stderr: string }): void => assert.equal(result.code, 0, result.stderr);

describe('blockchain:export, :import, :hash and :reset (Klayr Core commands on Kestrel data)', {
  timeout: 240_000,
}, () => {
  let full = '';
  let at20 = '';
  const made: string[] = [];
  const dataPathOf = (cached: string, owner?: string, fill?: number): Promise<string> => {
    const dataPath = tempDataPath();
    made.push(dataPath);
    copyChain(cached, dataPath);
    return owner === undefined
      ? Promise.resolve(dataPath)
      : writeNodeRecords(dataPath, owner, fill).then(() => dataPath);
  };
  const scratch = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'kestrel-archive-'));
    made.push(dir);
    return dir;
  };
  before(async () => {
    const chain = await offlineChain(CHAIN, CACHE);
    full = chain.dataPath;
    at20 = chain.at(20);
  });
  after(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('export holds only the chain; import gives the same blocks and state, keeps the target node records, and a node runs on it', async () => {
    const source = await dataPathOf(full, 'source node');
    const original = await chainSummary(source);
    assert.equal(original.tip, CHAIN.blocks);
    const hash = await runCLI('blockchain:hash', '-d', source);
    ok(hash);
    assert.equal(hash.stdout, `${original.blocks}\n`);

    const out = scratch();
    const exported = await runCLI('blockchain:export', '-d', source, '-o', out);
    ok(exported);
    const archive = join(out, 'blockchain.tar.gz');
    assert.match(exported.stdout, new RegExp(`Export completed:\\n   ${archive}\\n`));
    const entries: string[] = [];
    await list({ file: archive, onReadEntry: (e) => entries.push(e.path) });
    assert.deepEqual(entries, ['kestrel.lmdb']);

    // into an empty data path: the chain, and none of the source's own records
    const fresh = join(scratch(), 'fresh');
    ok(await runCLI('blockchain:import', archive, '-d', fresh));
    assert.deepEqual(await chainSummary(fresh), original);
    assert.ok(Object.values(await nodeRecords(fresh)).every((v) => v === undefined));
    assert.equal((await runCLI('blockchain:hash', '-d', fresh)).stdout, hash.stdout);

    // over a data path with blocks: only with --force, and its own records stay
    const behind = await dataPathOf(at20, 'target node');
    const refused = await runCLI('blockchain:import', archive, '-d', behind);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /There is already blockchain data at .*\. Use --force to override\./);
    assert.equal((await chainSummary(behind)).tip, 20);
    ok(await runCLI('blockchain:import', archive, '-d', behind, '--force'));
    assert.deepEqual(await chainSummary(behind), original);
    assert.ok(Object.values(await nodeRecords(behind)).every((v) => v === 'target node'));

    // an archive carrying another node's records (a raw copy of its environment): those are dropped, the target's kept
    const raw = join(scratch(), 'raw.tar.gz');
    await create({ gzip: true, file: raw, cwd: join(source, 'data') }, ['kestrel.lmdb']);
    const other = await dataPathOf(at20, 'other node', 8);
    ok(await runCLI('blockchain:import', raw, '-d', other, '--force'));
    assert.deepEqual(await chainSummary(other), original);
    assert.ok(
      Object.values(await nodeRecords(other)).every((v) => v === undefined),
      "the source node's records",
    );
    assert.ok(Object.values(await nodeRecords(other, 8)).every((v) => v === 'other node'));

    // a node starts on the imported chain at its tip
    const rpcPort = await freePort();
    const node = spawnKestrel(fresh, {
      ...offlineChainConfigFile(CHAIN),
      rpc: { modes: ['http'], host: '127.0.0.1', port: rpcPort, allowedMethods: ['*'] },
      network: { host: '127.0.0.1', port: await freePort(), seedPeers: [] },
      generator: { keys: { fromFile: keysFile([]) } },
    });
    try {
      const deadline = Date.now() + 60_000;
      let info: { height: number } | undefined;
      while (info === undefined && Date.now() < deadline) {
        info = await call<{ height: number }>(rpcPort, 'system_getNodeInfo').catch(() => undefined);
        if (info === undefined) await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal(info?.height, CHAIN.blocks, node.lines.slice(-10).join('\n'));
    } finally {
      await node.stop();
    }
  });

  it('reset asks first, removes the blocks and state, keeps the node records; both are refused while a node holds the data path', async () => {
    const dataPath = await dataPathOf(at20, 'this node');
    const before = await chainSummary(dataPath);
    for (const input of ['no\n', '']) {
      const declined = await runCLIWith({ input }, 'blockchain:reset', '-d', dataPath);
      ok(declined);
      assert.match(declined.stderr, /Are you sure you want to reset the db\? \(yes\/no\)/);
      assert.match(declined.stdout, /Nothing was changed/);
      assert.deepEqual(await chainSummary(dataPath), before);
    }

    const lock = DataPathLock.acquire(dataPath);
    try {
      const reset = await runCLI('blockchain:reset', '-d', dataPath, '--yes');
      assert.equal(reset.code, 1);
      assert.match(
        reset.stderr,
        /Can't reset the blockchain data while a node runs on .*: process \d+.*Stop the node first\./,
      );
      const content = scratch();
      writeFileSync(join(content, 'kestrel.lmdb'), 'not looked at before the lock');
      const file = join(scratch(), 'blockchain.tar.gz');
      await create({ gzip: true, file, cwd: content }, ['kestrel.lmdb']);
      const imported = await runCLI('blockchain:import', file, '-d', dataPath, '--force');
      assert.equal(imported.code, 1);
      assert.match(imported.stderr, /Can't import blockchain data while a node runs on/);
      assert.deepEqual(await chainSummary(dataPath), before);
    } finally {
      lock.release();
    }

    const reset = await runCLIWith({ input: 'yes\n' }, 'blockchain:reset', '-d', dataPath);
    ok(reset);
    assert.match(reset.stdout, /Blockchain data has been reset\./);
    const after = await chainSummary(dataPath);
    assert.equal(after.tip, undefined);
    assert.equal(after.stateRoot, undefined);
    assert.equal(after.stateEntries, 0);
    assert.ok(Object.values(await nodeRecords(dataPath)).every((v) => v === 'this node'));
    assert.match((await runCLI('blockchain:reset', '-d', join(scratch(), 'none'), '-y')).stdout, /nothing to reset/);
  });

  it("import refuses Klayr Core's archive, other archives and files, changing nothing", async () => {
    const dataPath = await dataPathOf(at20);
    const before = await chainSummary(dataPath);
    const dir = scratch();
    const archive = async (name: string, files: Record<string, string>): Promise<string> => {
      const content = join(dir, `${name}-content`);
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(content, path, '..'), { recursive: true });
        writeFileSync(join(content, path), text);
      }
      const file = join(dir, `${name}.tar.gz`);
      await create({ gzip: true, file, cwd: content }, Object.keys(files));
      return file;
    };
    const cases: [string, RegExp][] = [
      [
        await archive('klayr', { 'blockchain.db/CURRENT': 'x', 'state.db/CURRENT': 'x' }),
        /is Klayr Core's blockchain archive \(RocksDB state\.db and blockchain\.db\), which Kestrel cannot read/,
      ],
      [
        await archive('extra', { 'kestrel.lmdb': 'x', 'notes.txt': 'x' }),
        /is not an archive of kestrel blockchain:export: it must hold exactly one file, kestrel\.lmdb \(it holds kestrel\.lmdb, notes\.txt\)/,
      ],
      [join(dir, 'plain.tar'), /The blockchain data file must be a gzip file\./],
    ];
    writeFileSync(join(dir, 'garbage.gz'), 'not gzip at all');
    cases.push([join(dir, 'garbage.gz'), /garbage\.gz is not a gzipped tar archive: TAR_BAD_ARCHIVE/]);
    cases.push([join(dir, 'missing.tar.gz'), /There is no file at .*missing\.tar\.gz\./]);
    for (const [file, message] of cases) {
      const refused = await runCLI('blockchain:import', file, '-d', dataPath, '--force');
      assert.equal(refused.code, 1, file);
      assert.match(refused.stderr, message);
    }
    assert.deepEqual(await chainSummary(dataPath), before);
  });
});
