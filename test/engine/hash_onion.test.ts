import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPlainGeneratorKeys } from '../../src/engine/generator/keys.js';
import { codec } from '../../src/lib/codec/index.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { hashOnion } from '../../src/lib/crypto/hash_onion.js';
import { openChain } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import { randomAssetCodec } from '../../src/modules/random/method.js';
import { nextSeedReveal } from '../../src/modules/random/next_reveal.js';
import { HashOnionStores } from '../../src/modules/random/offchain.js';
import { openDatabases } from '../../src/storage/database.js';
import { devnetGenerator } from '../helpers/generator.js';
import { klayrCrypto } from '../helpers/klayr.js';
import { tempDataPath } from '../helpers/state.js';

const rewardMinted = {
  $id: '/reward/events/rewardMintedData',
  type: 'object',
  required: ['amount', 'reduction'],
  properties: { amount: { dataType: 'uint64', fieldNumber: 1 }, reduction: { dataType: 'uint32', fieldNumber: 2 } },
} as const;

describe('hash onions', () => {
  it('checkpoints equal @klayr/cryptography hashOnion for several counts and distances; bad shapes are refused', () => {
    for (const [count, distance] of [
      [10, 1],
      [100, 10],
      [1000, 1000],
      [5000, 250],
    ] as const) {
      const seed = sha256(Buffer.from(`seed ${count}`)).subarray(0, 16);
      const ours = hashOnion(seed, count, distance);
      const theirs: Buffer[] = klayrCrypto.utils.hashOnion(seed, count, distance);
      assert.deepEqual(
        ours.map((h) => h.toString('hex')),
        theirs.map((h) => h.toString('hex')),
        `${count}/${distance}`,
      );
    }
    assert.throws(() => hashOnion(Buffer.alloc(16), 10, 20), /Count must be greater than distance/);
    assert.throws(() => hashOnion(Buffer.alloc(16), 25, 10), /multiple of distance/);
  });

  it('successive reveals each open the previous one, across checkpoints, until the onion is used up', () => {
    const stores = new HashOnionStores(openDatabases(tempDataPath()).generator);
    const address = Buffer.alloc(20, 1);
    stores.setOnion(address, { count: 30, distance: 10, hashes: hashOnion(Buffer.alloc(16, 9), 30, 10) });
    stores.setUsed(address, [{ count: 0, height: 0 }]);
    let previous: Buffer | undefined;
    for (let height = 1; height <= 30; height++) {
      const { hash, count } = nextSeedReveal(stores, address, height);
      assert.equal(count, height);
      if (previous !== undefined) assert.ok(sha256(hash).subarray(0, 16).equals(previous), `reveal at ${height}`);
      previous = hash;
      stores.recordUsed(address, height - 1, { count, height });
    }
    let exhausted = false;
    nextSeedReveal(stores, address, 31, () => (exhausted = true));
    assert.ok(exhausted);
  });

  it('validators with onions generate blocks whose seed reveals are valid; without, every later reveal is invalid', async () => {
    let now = 0;
    const config = loadConfig({ dataPath: tempDataPath() });
    const dbs = openDatabases(tempDataPath());
    const opened = openChain(config, dbs, { now: () => now });
    const { events, genesis } = opened;
    const keys = readPlainGeneratorKeys(config.generator!.keys.fromFile!);
    const stores = new HashOnionStores(dbs.generator);
    // half the validators have onions
    keys
      .filter((_, i) => i % 2 === 0)
      .forEach((k, i) => {
        stores.setOnion(k.address, {
          count: 100,
          distance: 10,
          hashes: hashOnion(sha256(Buffer.from(`v${i}`)).subarray(0, 16), 100, 10),
        });
      });
    const generator = devnetGenerator(opened, config, dbs.generator, () => now);
    now = genesis.header.timestamp;
    const seen = new Set<string>();
    const reductions = { withOnion: [] as number[], withoutOnion: [] as number[] };
    for (let i = 1; i <= 110; i++) {
      now += config.genesis.blockTime;
      const block = (await generator.tick())!;
      const address = block.header.generatorAddress.toString('hex');
      const event = events.at(block.header.height).find((e) => e.name === 'rewardMinted')!;
      const { reduction } = codec.decode<{ reduction: number }>(rewardMinted, event.data);
      if (seen.has(address) && block.header.impliesMaxPrevotes)
        (stores.getOnion(block.header.generatorAddress) ? reductions.withOnion : reductions.withoutOnion).push(
          reduction,
        );
      seen.add(address);
      assert.equal(randomAssetCodec.decode(block.assets[0]!.data).seedReveal.length, 16);
    }
    assert.ok(
      reductions.withOnion.length > 5 && reductions.withOnion.every((r) => r === 0),
      `valid reveals: ${reductions.withOnion.join(',')}`,
    );
    assert.ok(
      reductions.withoutOnion.length > 5 && reductions.withoutOnion.every((r) => r === 1),
      `invalid reveals: ${reductions.withoutOnion.join(',')}`,
    );
  });
});
