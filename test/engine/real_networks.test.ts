import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { processGenesisBlock } from '../../src/engine/genesis.js';
import { prefetchProofsOfPossession } from '../../src/engine/pools/pop_prefetch.js';
import { EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { blockHeaderID, computeAssetRoot, decodeBlock } from '../../src/lib/chain/block.js';
import type { ApplicationConfig } from '../../src/main/config/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { genesisProofsOfPossession } from '../../src/modules/pos/genesis.js';
import { createPooledBlsVerifier } from '../../src/workers/bls_verifier.js';

const fixture = (network: string, file: string): string =>
  fileURLToPath(new URL(`../../../src/main/network/${network}/${file}`, import.meta.url));

/** Klayr Core's config of a live network over Kestrel's defaults: its genesis settings and module config. */
const networkConfig = (network: string): ApplicationConfig => {
  const file = JSON.parse(readFileSync(fixture(network, 'config.json'), 'utf8')) as Pick<
    ApplicationConfig,
    'genesis' | 'modules'
  >;
  const config = loadConfig();
  return { ...config, genesis: { ...config.genesis, ...file.genesis }, modules: file.modules };
};

// Live networks' genesis blocks look nothing like the devnet's: mainnet has 76,424 auth accounts
// (multisignature ones among them), no legacy asset, 172 validators; testnet likewise.
describe("Klayr Core's live networks: their genesis blocks processed by Kestrel's modules", () => {
  for (const [network, counts] of [
    ['testnet', { assets: ['auth', 'interoperability', 'pos', 'token'] }],
    ['mainnet', { assets: ['auth', 'interoperability', 'pos', 'token'] }],
  ] as const) {
    it(`${network}: the state root, event root and validators hash of the header are reproduced`, async () => {
      const blob = gunzipSync(readFileSync(fixture(network, 'genesis_block.blob.gz')));
      assert.equal(
        createHash('sha256').update(blob).digest('hex'),
        readFileSync(fixture(network, 'genesis_block.blob.SHA256'), 'utf8').trim(),
        'the blob Klayr Core publishes',
      );
      const block = decodeBlock(blob);
      const config = networkConfig(network);
      assert.deepEqual(
        block.assets.map((a) => a.module),
        counts.assets,
      );
      const bls = createPooledBlsVerifier(2);
      try {
        await prefetchProofsOfPossession(genesisProofsOfPossession(block.assets), bls);
      } finally {
        await bls.close();
      }
      // processGenesisBlock throws naming the first root that differs from the header's
      const result = processGenesisBlock(
        block,
        Buffer.from(config.genesis.chainID, 'hex'),
        applicationModules(config),
        EMPTY_STATE,
      );
      assert.equal(result.stateRoot.toString('hex'), block.header.stateRoot.toString('hex'));
      assert.equal(result.eventRoot.toString('hex'), block.header.eventRoot.toString('hex'));
      assert.equal(result.validatorsHash.toString('hex'), block.header.validatorsHash.toString('hex'));
      assert.ok(result.nextValidators.validators.length > 0);
      assert.equal(blockHeaderID(block.header).length, 32);
    });
  }

  it('a live genesis block with one auth account left out no longer reproduces its state root', () => {
    const block = decodeBlock(gunzipSync(readFileSync(fixture('testnet', 'genesis_block.blob.gz'))));
    const config = networkConfig('testnet');
    const assets = block.assets.filter((a) => a.module !== 'auth');
    const withoutAuth = { ...block, header: { ...block.header, assetRoot: computeAssetRoot(assets) }, assets };
    assert.throws(
      () =>
        processGenesisBlock(
          withoutAuth,
          Buffer.from(config.genesis.chainID, 'hex'),
          applicationModules(config),
          EMPTY_STATE,
        ),
      /stateRoot mismatch/,
    );
  });
});
