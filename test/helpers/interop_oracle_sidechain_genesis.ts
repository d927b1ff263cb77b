// A sidechain for the interoperability differential: the devnet genesis block under another chain
// ID of the devnet's network, with an empty interoperability asset (a sidechain that has not
// registered the mainchain yet), executed by klayr-framework's modules with the sidechain
// interoperability module, wired as Klayr's application wires a sidechain.
import { readFileSync } from 'node:fs';
import type { Block } from '../../src/lib/chain/block.js';
import { encodeBlock } from '../../src/lib/chain/block.js';
import { codec } from '../../src/lib/codec/index.js';
import { genesisInteroperabilitySchema } from '../../src/modules/interoperability/schemas.js';
import type { GenesisTokenStore } from '../../src/modules/token/schemas.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import { devnetFile } from './devnet.js';
import { devnetGenesis } from './genesis_compare.js';
import type { KlayrGenesisResult } from './klayr_genesis.js';
import { runKlayrApplicationGenesis } from './klayr_genesis.js';

/**
 * The devnet genesis block as a sidechain's: an empty interoperability asset (before it registers
 * the mainchain), and KLY, the mainchain's token, held by the same accounts but with no supply here
 * (a chain keeps the supply of its own tokens only).
 */
export const sidechainGenesisBlock = (): Block => {
  const block = devnetGenesis();
  const interop = codec.encode(genesisInteroperabilitySchema, {
    ownChainName: '',
    ownChainNonce: 0n,
    chainInfos: [],
    terminatedStateAccounts: [],
    terminatedOutboxAccounts: [],
  });
  const tokenAsset = codec.decode<GenesisTokenStore>(
    genesisTokenStoreSchema,
    block.assets.find((a) => a.module === 'token')!.data,
  );
  const token = codec.encode(genesisTokenStoreSchema, { ...tokenAsset, supplySubstore: [] });
  return {
    ...block,
    assets: block.assets.map((a) =>
      a.module === 'interoperability' ? { ...a, data: interop } : a.module === 'token' ? { ...a, data: token } : a,
    ),
  };
};

export const runKlayrSidechainGenesis = async (
  chainID: Buffer,
  block: Block = sidechainGenesisBlock(),
): Promise<KlayrGenesisResult> => {
  const config = JSON.parse(readFileSync(devnetFile('config.json'), 'utf8'));
  config.genesis.chainID = chainID.toString('hex');
  return runKlayrApplicationGenesis(config, encodeBlock(block), false);
};
