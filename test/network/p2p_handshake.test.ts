// The handshake query: what the dialling side puts in the URL, and the accepting side's checks on it, one rule per
// case in @klayr/p2p's order; and a P2P port that is taken.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { P2P } from '../../src/network/p2p/p2p.js';
import {
  checkInboundHandshake,
  handshakeQuery,
  incompatibilityReason,
} from '../../src/network/p2p/transport/handshake.js';
import type { NodeInfo } from '../../src/network/p2p/types.js';
import { baseNodeInfo, kestrelConfig, randomPort } from '../helpers/p2p.js';

const own: NodeInfo = { ...baseNodeInfo(), nonce: 'aaaaaaaaaaaaaaaa' };
const context = { nodeInfo: own, port: 7667, maxPeerInfoSize: 20480, netgroup: 123 };
const url = (query: string) => `/rpc/?${query}`;
const check = (query: string, ip = '1.2.3.4') => checkInboundHandshake(url(query), ip, context);
const good = 'networkVersion=5.1&chainID=04000000&nonce=bbbbbbbbbbbbbbbb&advertiseAddress=true&port=7000';

describe('the handshake query', () => {
  it('is querystring.stringify of networkVersion, chainID hex, nonce, advertiseAddress and the own port', () => {
    assert.equal(
      handshakeQuery({ ...own, advertiseAddress: false }, 5000),
      'networkVersion=5.1&chainID=04000000&nonce=aaaaaaaaaaaaaaaa&advertiseAddress=false&port=5000',
    );
  });
});

describe('inbound handshake checks', () => {
  it('accepts a compatible peer, identified by its address and announced port', () => {
    const result = check(good);
    assert.ok(result.ok);
    assert.equal(result.peer.peerId, '1.2.3.4:7000');
    assert.deepEqual(result.peer.chainID, Buffer.from('04000000', 'hex'));
    assert.equal(result.peer.advertiseAddress, true);
  });

  it("advertiseAddress is false only when it says 'false'", () => {
    const result = check(good.replace('advertiseAddress=true', 'advertiseAddress=false'));
    assert.ok(result.ok);
    assert.equal(result.peer.advertiseAddress, false);
  });

  it('no URL: 4501', () => {
    assert.deepEqual(checkInboundHandshake(undefined, '1.2.3.4', context), {
      ok: false,
      code: 4501,
      reason: 'Peer did not provide a valid URL as part of the WebSocket connection',
      selfPort: undefined,
    });
  });

  it('its own nonce: 4101, with the port to forget', () => {
    assert.deepEqual(check(good.replace('nonce=bbbbbbbbbbbbbbbb', `nonce=${own.nonce}`)), {
      ok: false,
      code: 4101,
      reason: 'Peer cannot connect to itself',
      selfPort: 7000,
    });
  });

  for (const [name, query] of [
    ['no networkVersion', good.replace('networkVersion=5.1&', '')],
    ['no chainID', good.replace('chainID=04000000&', '')],
    ['two chainIDs', `${good}&chainID=04000000`],
  ]) {
    it(`${name}: 4502`, () => {
      const result = check(query as string);
      assert.equal(result.ok, false);
      assert.equal(!result.ok && result.code, 4502);
    });
  }

  for (const port of ['0', 'abc', '70000', '']) {
    it(`port '${port}': 4105`, () => {
      const result = check(good.replace('port=7000', `port=${port}`));
      assert.equal(!result.ok && result.code, 4105);
    });
  }

  it('an address that is not IPv4: 4105', () => {
    const result = check(good, '::ffff:1.2.3.4');
    assert.equal(!result.ok && result.code, 4105);
  });

  it('peer info over 20,480 bytes: 4105', () => {
    const result = check(good.replace('nonce=bbbbbbbbbbbbbbbb', `nonce=${'b'.repeat(20_500)}`));
    assert.deepEqual(result, {
      ok: false,
      code: 4105,
      reason: 'PeerInfo is larger than the maximum allowed size 20480 bytes',
      selfPort: undefined,
    });
  });

  it('another chain ID: 4104', () => {
    const result = check(good.replace('chainID=04000000', 'chainID=04000001'));
    assert.equal(!result.ok && `${result.code} ${result.reason}`, '4104 Peer chainID did not match our own');
  });

  it('another major version: 4104; a minor one is compatible', () => {
    const result = check(good.replace('networkVersion=5.1', 'networkVersion=4.9'));
    assert.equal(!result.ok && `${result.code} ${result.reason}`, '4104 Peer has incompatible protocol version');
    assert.ok(check(good.replace('networkVersion=5.1', 'networkVersion=5.0')).ok);
  });

  it('major version 0 is never compatible', () => {
    assert.equal(
      incompatibilityReason({ chainID: own.chainID, networkVersion: '0.1' }, { ...own, networkVersion: '0.1' }),
      'Peer has incompatible protocol version',
    );
  });
});

describe('the P2P port', () => {
  it('a port in use makes start() reject with the network.port message, and nothing keeps running', async () => {
    const port = randomPort();
    const holder = createServer().listen(port, '127.0.0.2');
    await new Promise((r) => holder.once('listening', r));
    const p2p = new P2P(kestrelConfig({ hostIp: '127.0.0.2', port }));
    await assert.rejects(p2p.start(), { message: `Port ${port} on 127.0.0.2 is already in use (network.port)` });
    assert.equal(p2p.isActive, false);
    holder.close();
  });
});
