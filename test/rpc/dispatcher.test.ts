import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Dispatcher } from '../../src/rpc/dispatcher.js';
import { RPCMetrics } from '../../src/rpc/metrics.js';
import { EndpointRegistry } from '../../src/rpc/registry.js';

const call = (method: string, params: Record<string, unknown> = {}, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('constant endpoints', () => {
  it('run their handler until it first succeeds, then answer from the serialized result, each with its own id', async () => {
    const registry = new EndpointRegistry();
    let calls = 0;
    let fail = true;
    registry.register('test_constant', {
      constant: true,
      params: { type: 'object', properties: { verbose: { type: 'boolean' } } },
      handler: () => {
        calls += 1;
        if (fail) throw new Error('not ready');
        return { value: 7, calls };
      },
    });
    const metrics = new RPCMetrics();
    const dispatcher = new Dispatcher({ registry, metrics, allowedMethods: ['*'] });
    // an error is never kept
    assert.deepEqual(JSON.parse(dispatcher.handle(call('test_constant'), 'http') as string), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32600, message: 'not ready' },
    });
    fail = false;
    assert.deepEqual(JSON.parse(dispatcher.handle(call('test_constant', {}, 'a'), 'http') as string), {
      jsonrpc: '2.0',
      id: 'a',
      result: { value: 7, calls: 2 },
    });
    assert.deepEqual(JSON.parse(dispatcher.handle(call('test_constant', { verbose: true }, 2), 'ws') as string), {
      jsonrpc: '2.0',
      id: 2,
      result: { value: 7, calls: 2 },
    });
    assert.equal(calls, 2);
    // params are still validated
    assert.match(
      dispatcher.handle(call('test_constant', { verbose: 'yes' }), 'http') as string,
      /should be of type 'boolean'/,
    );
    // every request is counted; the three that reached the handler or its kept result are timed (invalid params never get that far)
    const text = await metrics.text();
    assert.match(text, /kestrel_rpc_requests_total\{method="test_constant",transport="http",outcome="success"\} 1/);
    assert.match(text, /kestrel_rpc_requests_total\{method="test_constant",transport="ws",outcome="success"\} 1/);
    assert.match(text, /kestrel_rpc_request_duration_seconds_count\{method="test_constant"\} 3/);
  });

  it("keeps an asynchronous handler's result once it resolves; other endpoints run on every call", async () => {
    const registry = new EndpointRegistry();
    let constantCalls = 0;
    let plainCalls = 0;
    registry.register('test_asyncConstant', { constant: true, handler: async () => ({ n: ++constantCalls }) });
    registry.register('test_plain', { handler: () => ({ n: ++plainCalls }) });
    const dispatcher = new Dispatcher({ registry, allowedMethods: ['*'] });
    assert.equal(
      await dispatcher.handle(call('test_asyncConstant'), 'ipc'),
      '{"jsonrpc":"2.0","id":1,"result":{"n":1}}',
    );
    assert.equal(
      dispatcher.handle(call('test_asyncConstant', {}, 3), 'ipc'),
      '{"jsonrpc":"2.0","id":3,"result":{"n":1}}',
    );
    dispatcher.handle(call('test_plain'), 'ipc');
    assert.equal(dispatcher.handle(call('test_plain'), 'ipc'), '{"jsonrpc":"2.0","id":1,"result":{"n":2}}');
  });
});
