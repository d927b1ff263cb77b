// Kestrel's P2P next to a real Klayr Core node (klayr-framework 0.12.3 with @klayr/p2p 0.10.1, the shared
// klayr-node tool) that generates blocks: Kestrel connects, receives postBlock and postNodeInfo, and the node lists
// Kestrel among its connected peers (network_getConnectedPeers) with the node info Kestrel posted, without a ban.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { P2P } from '../../src/network/p2p/p2p.js';
import type { IncomingMessage, PeerInfo } from '../../src/network/p2p/types.js';
import { baseNodeInfo, randomPort, startKestrel, waitFor } from '../helpers/p2p.js';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const runNode = fileURLToPath(new URL('../../../../shared/tools/klayr-node/run-node.cjs', import.meta.url));

const rpc = async (port: number, method: string): Promise<unknown> => {
  const response = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
  });
  return ((await response.json()) as { result: unknown }).result;
};

describe('Kestrel P2P and a real Klayr Core node', () => {
  let node: ChildProcess;
  let kestrel: P2P;
  const nodePort = randomPort();
  const rpcPort = randomPort();
  const kestrelPort = randomPort();
  const lines: string[] = [];
  const messages: IncomingMessage[] = [];

  before(async () => {
    node = spawn(
      process.execPath,
      [
        runNode,
        '--generate',
        '--block-time',
        '3',
        '--host',
        '127.0.0.1',
        '--port',
        String(nodePort),
        '--rpc-port',
        String(rpcPort),
        '--rpc-modes',
        'http',
      ],
      { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    node.stderr?.resume();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`klayr-node did not start: ${lines.join('\n')}`)), 60_000);
      createInterface({ input: node.stdout as NodeJS.ReadableStream }).on('line', (line) => {
        lines.push(line);
        if (line.includes('] started in ')) {
          clearTimeout(timer);
          resolve();
        }
      });
      node.once('exit', (code) => reject(new Error(`klayr-node exited with ${code}: ${lines.join('\n')}`)));
    });
    kestrel = await startKestrel({
      hostIp: '127.0.0.2',
      port: kestrelPort,
      nodeInfo: baseNodeInfo({
        options: { height: 0, maxHeightPrevoted: 0, blockVersion: 0, lastBlockID: Buffer.alloc(0), legacy: [] },
      }),
      seedPeers: [{ ipAddress: '127.0.0.1', port: nodePort }],
    });
    kestrel.on('messageReceived', (m) => messages.push(m));
  });

  after(async () => {
    await kestrel?.stop();
    if (node !== undefined && node.exitCode === null) {
      node.kill('SIGTERM');
      await once(node, 'exit');
    }
  });

  it('connects to the node and receives its blocks (postBlock) and node info updates (postNodeInfo)', async () => {
    const nodePeerId = `127.0.0.1:${nodePort}`;
    await waitFor(() => kestrel.getConnectedPeers().some((p) => p.peerId === nodePeerId), 10_000, 'connected');
    await waitFor(() => messages.some((m) => m.event === 'postBlock'), 20_000, 'a postBlock');
    const block = messages.find((m) => m.event === 'postBlock');
    assert.equal(block?.peerId, nodePeerId);
    assert.ok(block?.data !== undefined && block.data.length > 100, 'the block bytes');
    await waitFor(
      () => {
        const peer: PeerInfo | undefined = kestrel.getConnectedPeers().find((p) => p.peerId === nodePeerId);
        return (peer?.sharedState?.options.height ?? 0) >= 1;
      },
      10_000,
      'the node height through postNodeInfo',
    );
  });

  it('the node lists Kestrel with the node info Kestrel posted, and has banned nobody', async () => {
    const peers = (await rpc(rpcPort, 'network_getConnectedPeers')) as {
      ipAddress: string;
      port: number;
      nonce: string;
      options?: { height: number };
    }[];
    const listed = peers.find((p) => p.port === kestrelPort);
    assert.ok(listed, JSON.stringify(peers));
    assert.equal(listed.nonce, kestrel.nodeInfo.nonce);
    assert.equal(listed.options?.height, 0);
    const stats = (await rpc(rpcPort, 'network_getStats')) as { banning: { bannedPeers: Record<string, unknown> } };
    assert.deepEqual(stats.banning.bannedPeers, {});
  });
});
