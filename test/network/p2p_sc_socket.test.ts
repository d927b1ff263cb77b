// The SocketCluster socket on its own, with short timers: the server's `#1` pings and its 4001 on a silent client,
// the client's 4000 when `#1` stops, request ack timeouts, aborts on close, and the wire shape of answers.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { WebSocket, WebSocketServer } from 'ws';
import { BadConnectionError, RequestTimeoutError } from '../../src/network/p2p/errors.js';
import { ScSocket } from '../../src/network/p2p/transport/sc_socket.js';

describe('ScSocket', () => {
  let wss: WebSocketServer;
  let url: string;
  const serverSockets: ScSocket[] = [];
  let serverOptions = { pingIntervalMs: 50, pongTimeoutMs: 200 };

  before(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(wss, 'listening');
    url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    wss.on('connection', (ws) => {
      const socket = new ScSocket(ws, { role: 'server', ackTimeoutMs: 150, ...serverOptions });
      socket.state = 'open';
      socket.on('event', (name, data, respond) => {
        if (name === 'echo') respond?.(undefined, data);
        if (name === 'fail') respond?.(new Error('nope'));
      });
      serverSockets.push(socket);
    });
  });

  after(async () => {
    for (const s of serverSockets) s.terminate();
    await new Promise((r) => wss.close(r));
  });

  const rawClient = async (): Promise<{ ws: WebSocket; frames: string[]; closed: Promise<number> }> => {
    const ws = new WebSocket(url);
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(d.toString()));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    await once(ws, 'open');
    return { ws, frames, closed };
  };

  it('the server pings with #1 and closes a client that stays silent with 4001', async () => {
    const { frames, closed } = await rawClient();
    assert.equal(await closed, 4001);
    assert.ok(frames.includes('#1'));
  });

  it('a client answering #2 stays connected', async () => {
    const { ws, closed } = await rawClient();
    ws.on('message', (d) => {
      if (d.toString() === '#1') ws.send('#2');
    });
    const result = await Promise.race([closed, new Promise((r) => setTimeout(() => r('open'), 500))]);
    assert.equal(result, 'open');
    ws.terminate();
  });

  it('answers events with a cid as {rid, data} or {rid, error: {message}}, events without a cid not at all', async () => {
    const { ws, frames } = await rawClient();
    ws.send(JSON.stringify({ event: 'echo', data: { a: 1 }, cid: 7 }));
    ws.send(JSON.stringify({ event: 'fail', data: {}, cid: 8 }));
    ws.send(JSON.stringify({ event: 'echo', data: { a: 2 } }));
    await new Promise((r) => setTimeout(r, 100));
    ws.terminate();
    assert.deepEqual(
      frames.filter((f) => f !== '#1'),
      ['{"rid":7,"data":{"a":1}}', '{"rid":8,"error":{"message":"nope"}}'],
    );
  });

  it('a client closes with 4000 when the server stops pinging', async () => {
    serverOptions = { pingIntervalMs: 10_000, pongTimeoutMs: 10_000 };
    const ws = new WebSocket(url);
    await once(ws, 'open');
    const client = new ScSocket(ws, { role: 'client', ackTimeoutMs: 150 });
    client.state = 'open';
    client.expectPings(150);
    const [code] = await once(client, 'close');
    assert.equal(code, 4000);
  });

  it('a request without an answer times out; pending requests fail when the socket closes', async () => {
    const ws = new WebSocket(url);
    await once(ws, 'open');
    const client = new ScSocket(ws, { role: 'client', ackTimeoutMs: 100 });
    client.state = 'open';
    assert.deepEqual(await client.request('echo', { b: 1 }), { b: 1 });
    await assert.rejects(client.request('unknown', {}), RequestTimeoutError);
    const pending = client.request('unknown', {});
    client.close(1000);
    await assert.rejects(pending, BadConnectionError);
    await assert.rejects(client.request('echo', {}), BadConnectionError);
  });
});
