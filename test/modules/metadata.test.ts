import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import {
  endpointDeclarationMismatches,
  moduleEndpoints,
  modulesMetadata,
} from '../../src/engine/state_machine/metadata.js';
import type { EndpointServices, Module } from '../../src/engine/state_machine/module.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { KestrelNode } from '../../src/main/node.js';
// loads klayr-framework without its native database binary
import { klayrDefaultModules } from '../helpers/klayr.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const apiClient: any = require('@klayr/api-client');

type Entry = { name?: string; key?: string; version?: number };
type Metadata = { name: string } & Record<Kind, Entry[]>;
type Kind = 'commands' | 'events' | 'stores' | 'endpoints' | 'assets';
const KINDS: Kind[] = ['commands', 'events', 'stores', 'endpoints', 'assets'];

/**
 * system_getMetadata as Klayr Core answers it: klayr-framework's modules as
 * Application.defaultApplication registers them on a mainchain, each module's metadata() with
 * its name, sorted by name and sent as JSON (klayr-framework's ABI handler).
 */
const klayrMetadata = (blockTime: number): Metadata[] => {
  const modules = klayrDefaultModules();
  initialisePoSWindows(modules, blockTime);
  const list = modules
    .map((m) => ({ ...m.metadata(), name: m.name }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return JSON.parse(JSON.stringify(list)) as Metadata[];
};

/**
 * What PoSModule.init does to its metadata: it writes the windows' bounds for the block time into the schema objects
 * getConstants' response schema shares (PoSModule._getConfigSchema).
 */
const initialisePoSWindows = (
  modules: { name: string; _getConfigSchema?: (blockTime: number) => unknown }[],
  blockTime: number,
) => {
  modules.find((m) => m.name === 'pos')?._getConfigSchema?.(blockTime);
};

/** Klayr Core's own module (klayr-core, not klayr-framework): checked against klayr-core's source below. */
const MODULES_NOT_IN_KLAYR_FRAMEWORK = ['legacy'];
/** Klayr's entries Kestrel does not publish (none now: every command Klayr's modules register is executed). */
const NOT_PUBLISHED_BY_KESTREL: Record<string, Partial<Record<Kind, string[]>>> = {};

const entryName = (kind: Kind, e: Entry): string =>
  kind === 'stores' ? e.key! : kind === 'assets' ? String(e.version) : e.name!;

describe("system_getMetadata equals Klayr Core's", () => {
  let node: KestrelNode;
  let client: any;
  let ours: Metadata[];
  const klayr = klayrMetadata(loadConfig().genesis.blockTime);

  before(async () => {
    const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
    delete config.generator;
    node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    client = await apiClient.createWSClient(`ws://127.0.0.1:${config.rpc.port}/rpc-ws`);
    ours = ((await client.invoke('system_getMetadata')) as { modules: Metadata[] }).modules;
  });

  after(async () => {
    await client?.disconnect();
    await node?.stop();
  });

  it("lists Klayr Core's modules, sorted by name, with the fields of Klayr's ModuleMetadata in its order", () => {
    const names = [...klayr.map((m) => m.name), ...MODULES_NOT_IN_KLAYR_FRAMEWORK].sort((a, b) =>
      a.localeCompare(b, 'en'),
    );
    assert.deepEqual(
      ours.map((m) => m.name),
      names,
    );
    for (const module of ours) assert.deepEqual(Object.keys(module), Object.keys(klayr[0]!), module.name);
  });

  for (const kind of KINDS) {
    it(`has every module's ${kind} as Klayr's, entry by entry and in Klayr's order`, () => {
      for (const theirs of klayr) {
        const module = ours.find((m) => m.name === theirs.name)!;
        const missing = NOT_PUBLISHED_BY_KESTREL[theirs.name]?.[kind] ?? [];
        const expected = theirs[kind].filter((e) => !missing.includes(entryName(kind, e)));
        assert.deepEqual(
          module[kind].map((e) => entryName(kind, e)),
          expected.map((e) => entryName(kind, e)),
          `${theirs.name} ${kind}`,
        );
        for (const [i, entry] of expected.entries())
          assert.deepEqual(module[kind][i], entry, `${theirs.name} ${kind} ${entryName(kind, entry)}`);
        // an exception that Klayr no longer has, or that Kestrel now publishes, must leave the list
        for (const name of missing)
          assert.ok(
            theirs[kind].some((e) => entryName(kind, e) === name) &&
              !module[kind].some((e) => entryName(kind, e) === name),
            `${theirs.name} ${kind} ${name}`,
          );
      }
    });
  }

  it("publishes the legacy module as klayr-core 4.0's LegacyModule.metadata() does", () => {
    // from klayr-core v4.0.4 src/application/modules/legacy: module.ts metadata(), schemas.ts, events/, stores/
    const legacy = ours.find((m) => m.name === 'legacy')!;
    const ids = (entries: Entry[], field: 'params' | 'data') =>
      entries.map((e) => [e.name, (e as Record<string, { $id: string }>)[field]!.$id]);
    assert.deepEqual(ids(legacy.commands, 'params'), [
      ['reclaimKLY', '/legacy/command/reclaimLSKParams'],
      ['registerKeys', '/legacy/command/registerKeysParams'],
    ]);
    assert.deepEqual(ids(legacy.events, 'data'), [
      ['accountReclaimed', 'klayr/legacy/accountReclaimedEventData'],
      ['keysRegistered', 'klayr/legacy/keysRegisteredEventData'],
    ]);
    assert.deepEqual(legacy.stores, []);
    assert.deepEqual(
      legacy.assets.map((a) => [a.version, (a as { data: { $id: string } }).data.$id]),
      [[0, '/legacy/module/genesis']],
    );
    assert.deepEqual(legacy.endpoints, [
      {
        name: 'getLegacyAccount',
        request: {
          $id: '/legacy/endpoint/legacyAccountRequest',
          type: 'object',
          required: ['publicKey'],
          properties: { publicKey: { type: 'string', format: 'hex' } },
        },
        response: {
          $id: '/legacy/store/genesis',
          type: 'object',
          required: ['balance'],
          properties: { balance: { dataType: 'uint64', fieldNumber: 1 } },
        },
      },
    ]);
  });

  it('declares every module endpoint the node serves, and serves every one it declares', () => {
    // the legacy chain's endpoints are the engine's (Klayr's engine/legacy serves them), not the legacy module's
    const engineLegacy = [
      'getTransactionByID',
      'getTransactionsByBlockID',
      'getBlockByID',
      'getBlockByHeight',
      'getLegacyBrackets',
    ];
    const served = (name: string) =>
      node.registry
        .list()
        .filter((e) => e.namespace === name && !(name === 'legacy' && engineLegacy.includes(e.method)))
        .map((e) => e.method);
    for (const module of applicationModules(node.config))
      assert.deepEqual(endpointDeclarationMismatches(module, served(module.name)), [], module.name);
  });

  it("lets @klayr/api-client decode the genesis block's assets and events with it", async () => {
    const genesis = await client.block.getByHeight(0);
    assert.deepEqual(
      genesis.assets.map((a: { module: string }) => a.module),
      ['interoperability', 'legacy', 'pos', 'token'],
    );
    for (const asset of genesis.assets) assert.equal(typeof asset.data, 'object', `${asset.module} asset decoded`);
    const events = await client.event.get(0);
    assert.equal(events.length, 206);
    for (const event of events) assert.equal(typeof event.data, 'object', `${event.module} ${event.name} decoded`);
    const tokenAsset = genesis.assets.find((a: { module: string }) => a.module === 'token').data;
    assert.ok(Array.isArray(tokenAsset.userSubstore) && tokenAsset.userSubstore.length > 0);
  });
});

describe("a sidechain's system_getMetadata equals Klayr's sidechain application's", () => {
  const config = loadConfig();
  config.genesis.chainID = '04000001';
  const ours = modulesMetadata(applicationModules(config));
  // Application.defaultApplication(config, false): the sidechain modules in its registration order
  const klayr = klayrDefaultModules('sidechain');
  initialisePoSWindows(klayr, config.genesis.blockTime);
  const theirs = JSON.parse(
    JSON.stringify(
      klayr.map((m) => ({ ...m.metadata(), name: m.name })).sort((a, b) => a.name.localeCompare(b.name, 'en')),
    ),
  ) as Metadata[];

  it("runs Klayr's sidechain modules (no legacy module)", () => {
    assert.deepEqual(
      ours.map((m) => m.name),
      theirs.map((m) => m.name),
    );
  });

  for (const kind of KINDS) {
    it(`has every module's ${kind} as Klayr's, the sidechain interoperability module's included`, () => {
      for (const expected of theirs) {
        const module = JSON.parse(JSON.stringify(ours.find((m) => m.name === expected.name))) as Metadata;
        assert.deepEqual(module[kind], expected[kind], `${expected.name} ${kind}`);
      }
    });
  }

  it("publishes the sidechain interoperability commands in Klayr's order", () => {
    const interop = ours.find((m) => m.name === 'interoperability')!;
    assert.deepEqual(
      interop.commands.map((c) => c.name),
      ['registerMainchain', 'submitSidechainCrossChainUpdate', 'initializeStateRecovery', 'recoverState'],
    );
    assert.ok(interop.endpoints.some((e) => e.name === 'getMainchainID'));
    assert.ok(!interop.endpoints.some((e) => e.name === 'getRegistrationFee'));
  });
});

describe('module metadata', () => {
  it("is each module's metadata(), sorted by name", () => {
    const modules = applicationModules(loadConfig());
    const metadata = modulesMetadata(modules);
    assert.deepEqual(
      metadata.map((m) => m.name),
      modules.map((m) => m.name).sort((a, b) => a.localeCompare(b, 'en')),
    );
    for (const module of modules)
      assert.deepEqual(
        metadata.find((m) => m.name === module.name),
        module.metadata(),
      );
  });

  it('refuses a module whose endpoints and declarations disagree', () => {
    const services = {} as EndpointServices;
    const module = (served: string[], published: string[], unpublished: string[] = []): Module => ({
      name: 'nft',
      endpointDeclarations: { published: published.map((name) => ({ name })), unpublished },
      endpoints: () => Object.fromEntries(served.map((name) => [name, { handler: () => undefined }])),
      metadata: () => ({ commands: [], events: [], stores: [], endpoints: [], assets: [], name: 'nft' }),
    });
    assert.deepEqual(Object.keys(moduleEndpoints(module(['getNFT', 'setNFT'], ['getNFT'], ['setNFT']), services)), [
      'getNFT',
      'setNFT',
    ]);
    assert.throws(
      () => moduleEndpoints(module(['getNFT', 'getEverything'], ['getNFT']), services),
      /nft_getEverything is served but has no metadata entry/,
    );
    assert.throws(
      () => moduleEndpoints(module([], ['getNFT']), services),
      /nft_getNFT has a metadata entry but is not served/,
    );
    assert.deepEqual(endpointDeclarationMismatches(module([], []), ['getNFT']), [
      'nft_getNFT is served but has no metadata entry',
    ]);
  });
});
/* eslint-enable @typescript-eslint/no-explicit-any */
