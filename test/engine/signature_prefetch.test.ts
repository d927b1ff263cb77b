import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkingAhead, PrefetchingSignatureVerifier } from '../../src/engine/pools/signature_prefetch.js';
import type { SignatureVerifier } from '../../src/engine/pools/signature_verifier.js';
import { RequestPacer } from '../../src/engine/sync/request_pacer.js';
import type { MultisigKeys, PreparedTransaction } from '../../src/lib/transaction/index.js';

const tx = (n: number) => ({ id: Buffer.alloc(32, n) }) as unknown as PreparedTransaction;

const recordingVerifier = () => {
  const calls: { id: number; multisig: boolean }[] = [];
  const verifier: SignatureVerifier = {
    verify: async (t, keys) => {
      calls.push({ id: t.id[0] as number, multisig: keys !== undefined });
      return t.id[0] === 9 ? 'bad signature' : undefined;
    },
    verifyDigest: async () => true,
    stats: () => ({}) as ReturnType<SignatureVerifier['stats']>,
    close: async () => undefined,
  };
  return { verifier, calls };
};

describe('prefetched signature checks', () => {
  it('answer a single-signature check from the verdict started ahead, once', async () => {
    const { verifier, calls } = recordingVerifier();
    const prefetching = new PrefetchingSignatureVerifier(verifier);
    prefetching.prefetch([tx(1), tx(9)]);
    assert.equal(calls.length, 2, 'both checks started at once');
    assert.equal(await prefetching.verify(tx(1), undefined), undefined);
    assert.equal(await prefetching.verify(tx(9), undefined), 'bad signature');
    assert.equal(calls.length, 2, 'no second check');
    await prefetching.verify(tx(1), undefined);
    assert.equal(calls.length, 3, 'a verdict is used once');
  });

  it('ask the pool again for a multisignature sender (its keys are known only at execution), and forget what was not asked for', async () => {
    const { verifier, calls } = recordingVerifier();
    const prefetching = new PrefetchingSignatureVerifier(verifier);
    prefetching.prefetch([tx(2), tx(3)]);
    await prefetching.verify(tx(2), { numberOfSignatures: 2 } as unknown as MultisigKeys);
    assert.deepEqual(calls.at(-1), { id: 2, multisig: true });
    prefetching.clear();
    await prefetching.verify(tx(3), undefined);
    assert.equal(calls.length, 4);
  });

  it('let a verdict nobody asks for fail without an unhandled rejection, and pass a failure on to who asks', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', record);
    try {
      const failing: SignatureVerifier = {
        verify: () => Promise.reject(new Error('pool closed')),
        verifyDigest: () => Promise.reject(new Error('pool closed')),
        stats: () => ({}) as ReturnType<SignatureVerifier['stats']>,
        close: async () => undefined,
      };
      const ahead = checkingAhead(failing, [tx(4), tx(5)]);
      await assert.rejects(() => ahead.verify(tx(4), undefined), /pool closed/);
      ahead.clear();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});

describe('request pacing', () => {
  it('lets `limit` requests to a peer through in a window and holds the next until the oldest leaves it', async () => {
    const pacer = new RequestPacer(3, 300);
    const start = Date.now();
    for (let i = 0; i < 3; i++) await pacer.slot('a');
    await pacer.slot('b');
    assert.ok(Date.now() - start < 100, 'within the limit, and another peer, at once');
    await pacer.slot('a');
    assert.ok(Date.now() - start >= 290, 'the fourth waited for the window');
  });
});
