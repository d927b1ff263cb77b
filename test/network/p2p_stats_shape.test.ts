import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomPort, startKestrel, startKlayr } from '../helpers/p2p.js';

/** Every key path of a JSON-like value (records of counts compared as records). */
const shape = (value: unknown, path = ''): string[] =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.entries(value).flatMap(([k, v]) => [`${path}${k}`, ...shape(v, `${path}${k}.`)])
    : [];

describe('network_getStats', () => {
  it("has @klayr/p2p's shape: the same keys, the same types", async () => {
    const kestrel = await startKestrel({ hostIp: '127.0.0.1', port: randomPort() });
    const klayr = await startKlayr({ hostIp: '127.0.0.2', port: randomPort() });
    try {
      const ours = kestrel.getNetworkStats() as unknown as Record<string, unknown>;
      const theirs = klayr.getNetworkStats() as unknown as Record<string, unknown>;
      assert.deepEqual(shape(ours).sort(), shape(theirs).sort());
      for (const key of Object.keys(theirs)) assert.equal(typeof ours[key], typeof theirs[key], key);
    } finally {
      await Promise.all([kestrel.stop(), klayr.stop()]);
    }
  });
});
