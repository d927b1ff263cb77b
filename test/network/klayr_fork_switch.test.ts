// Kestrel and a real Klayr Core node generate apart, each with its own share of the genesis validators, then meet
// through a TCP relay that opens once both have blocks of their own: the node on the shorter branch deletes its
// blocks and switches to the other's chain, whichever implementation it is.
import assert from 'node:assert/strict';
import type { Server } from 'node:net';
import { connect, createServer } from 'node:net';
import { describe, it } from 'node:test';
import type { DevValidatorKey } from '../helpers/devnet.js';
import type { KlayrNode } from '../helpers/klayr_node.js';
import { startKlayrNode } from '../helpers/klayr_node.js';
import {
  blockIDAt,
  kestrelPeer,
  keysFile,
  nodeInfo,
  splitGenesisValidators,
  waitFor,
} from '../helpers/klayr_peer_world.js';
import { freePort } from '../helpers/ports.js';

const KLAYR_HOST = '127.0.0.1';
const KESTREL_HOST = '127.0.0.2';
const RELAY_HOST = '127.0.0.3';

/** A TCP relay from RELAY_HOST:port to a target, listening only once opened. */
const relay = (port: number, targetPort: number) => {
  let server: Server | undefined;
  return {
    open: () =>
      new Promise<void>((resolve) => {
        server = createServer((c) => {
          const up = connect({ host: KLAYR_HOST, port: targetPort });
          c.pipe(up).pipe(c);
          c.on('error', () => up.destroy());
          up.on('error', () => c.destroy());
        });
        server.listen(port, RELAY_HOST, () => resolve());
      }),
    close: () => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))),
  };
};

/** Runs both nodes apart until each has `apart` blocks, then joins them; resolves with the common chain's tip height. */
const forkAndJoin = async (
  kestrelKeys: DevValidatorKey[],
  klayrKeys: DevValidatorKey[],
  loser: 'kestrel' | 'klayr',
) => {
  const klayrPort = await freePort();
  const relayPort = await freePort();
  const link = relay(relayPort, klayrPort);
  const kestrel = await kestrelPeer({
    host: KESTREL_HOST,
    keys: kestrelKeys,
    seeds: [{ ip: RELAY_HOST, port: relayPort }],
  });
  let klayr: KlayrNode | undefined;
  try {
    klayr = await startKlayrNode({
      host: KLAYR_HOST,
      port: klayrPort,
      rpcPort: await freePort(),
      generate: true,
      keys: keysFile(klayrKeys),
    });
    const klayrRPC = klayr.rpcPort;
    await waitFor('both nodes to build 3 blocks apart', 120_000, async () => {
      const [a, b] = await Promise.all([nodeInfo(kestrel.rpcPort), nodeInfo(klayrRPC)]);
      return a.height >= 3 && b.height >= 3 ? true : undefined;
    });
    const losingPort = loser === 'kestrel' ? kestrel.rpcPort : klayrRPC;
    const losingBlock = await blockIDAt(losingPort, 2);
    assert.notEqual(await blockIDAt(kestrel.rpcPort, 2), await blockIDAt(klayrRPC, 2), 'two branches');
    await link.open();
    // Kestrel retries its seed every 30 s; then the shorter branch is deleted and the other chain synced
    const joined = await waitFor('one chain on both nodes', 150_000, async () => {
      const [a, b] = await Promise.all([nodeInfo(kestrel.rpcPort), nodeInfo(klayrRPC)]);
      const h = Math.min(a.height, b.height);
      if (h < 4) return undefined;
      const [x, y] = await Promise.all([blockIDAt(kestrel.rpcPort, 2), blockIDAt(klayrRPC, 2)]);
      return x === y ? h : undefined;
    });
    assert.notEqual(await blockIDAt(losingPort, 2), losingBlock, `the ${loser} node switched branches`);
    for (let h = 1; h <= joined; h++)
      assert.equal(await blockIDAt(kestrel.rpcPort, h), await blockIDAt(klayrRPC, h), `height ${h}`);
    if (loser === 'klayr') assert.ok(klayr.lines.some((l) => /block deleted height=2/.test(l)));
    return klayr.lines;
  } finally {
    await Promise.all([klayr?.stop(), kestrel.node.stop(), link.close()]);
  }
};

describe('Kestrel and a Klayr Core node on two branches meet', { timeout: 600_000, concurrency: true }, () => {
  // the 51 genesis validators: the side with more of them makes the longer chain
  const { even, odd } = splitGenesisValidators();
  const many = [...even, ...odd.slice(0, 10)];
  const few = odd.slice(10);

  it("a Klayr node on the shorter branch switches to Kestrel's chain", async () => {
    await forkAndJoin(many, few, 'klayr');
  });

  it("a Kestrel node on the shorter branch switches to Klayr's chain", async () => {
    await forkAndJoin(few, many, 'kestrel');
  });
});
