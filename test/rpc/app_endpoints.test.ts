// klayr-framework's root endpoints, served by its application bus: the names the application serves and its events,
// compared with what Klayr Core's application registers. Klayr Service reads both before anything else.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { klayrDefaultModules } from '../helpers/klayr.js';
import type { RPCNode } from '../helpers/rpc_node.js';
import { startRPCNode } from '../helpers/rpc_node.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);

/**
 * What Klayr Core's bus lists (controller getEndpoints): the app channel's two methods, then each module's endpoint
 * methods as getEndpointHandlers finds them, in Application.defaultApplication's registration order, then klayr-core's
 * legacy module's.
 */
const klayrRegisteredEndpoints = (): string[] => {
  const { getEndpointHandlers } = fw('endpoint');
  const modules = klayrDefaultModules();
  const names = ['app_getRegisteredEndpoints', 'app_getRegisteredEvents'];
  for (const module of modules)
    for (const method of getEndpointHandlers(module.endpoint).keys()) names.push(`${module.name}_${method}`);
  return [...names, 'legacy_getLegacyAccount'];
};

describe("the application's root endpoints (app_*)", () => {
  let rpc: RPCNode;
  before(async () => {
    rpc = await startRPCNode((config) => {
      delete config.generator;
    });
  });
  after(() => rpc.stop());

  it("app_getRegisteredEndpoints lists the names Klayr Core's application serves, and none of the engine's", async () => {
    const listed = (await rpc.result('app_getRegisteredEndpoints')) as string[];
    // the same names; a module's methods may come in another order (Klayr lists its endpoint class's methods)
    assert.deepEqual([...listed].sort(), klayrRegisteredEndpoints().sort());
    assert.deepEqual(listed.slice(0, 2), ['app_getRegisteredEndpoints', 'app_getRegisteredEvents']);
    for (const name of listed) assert.equal(rpc.node.registry.get(name)?.origin, 'application', name);
  });

  it("app_getRegisteredEvents lists the application's bus events", async () => {
    assert.deepEqual(await rpc.result('app_getRegisteredEvents'), ['app_ready', 'app_shutdown']);
  });
});
