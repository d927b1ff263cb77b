import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import type { GenesisAssetInput } from '../../../engine/genesis.js';
import { absolutePath } from '../../config/home.js';
import { uint32 } from '../flags.js';

const readAssets = (file: string): GenesisAssetInput[] => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(file), 'utf8'));
  } catch (e) {
    throw new Error(`Cannot read the assets file ${file}: ${(e as Error).message}`);
  }
  const assets = (parsed as { assets?: unknown }).assets;
  if (
    !Array.isArray(assets) ||
    !assets.every(
      (a) =>
        typeof a === 'object' &&
        a !== null &&
        typeof a.module === 'string' &&
        typeof a.schema === 'object' &&
        'data' in a,
    )
  ) {
    throw new Error(
      'The assets file must be {"assets": [{"module", "data", "schema"}, …]} (Klayr Core genesis assets format)',
    );
  }
  return assets as GenesisAssetInput[];
};

/**
 * `kestrel genesis-block:create -f <assets>`: a genesis block built with the node's modules, with
 * Klayr Core's flags (`-h` is the height, as Klayr's; help is `--help`) and files.
 */
export const genesisBlockCreateCommand = (): Command =>
  new Command('genesis-block:create')
    .description(
      "Create a genesis block from genesis assets (JSON), computing its asset, state and event roots and validators hash with the node's modules.",
    )
    .helpOption('--help', 'display help for command')
    .requiredOption('-f, --assets-file <path>', 'Genesis assets: {"assets": [{"module", "data", "schema"}]}')
    .option('-o, --output <dir>', 'Output folder path of the generated genesis block.', 'config')
    .option('--export-json', 'Export genesis block as JSON format along with blob (genesis_block.json).')
    .option('-h, --height <height>', 'Genesis block height.', uint32('height'), 0)
    .option('-t, --timestamp <seconds>', 'Genesis block timestamp (Unix seconds); default now.', uint32('timestamp'))
    .option('-p, --previous-block-id <hex>', 'Previous block ID (32 bytes hex); default zeros.')
    .option('-n, --network <network>', 'Network whose chain ID and module config to use.', 'devnet')
    .option('-c, --config <file>', 'Config file with the chain ID and module config to use.')
    .action(
      async (options: {
        assetsFile: string;
        output: string;
        exportJson?: boolean;
        height: number;
        timestamp?: number;
        previousBlockId?: string;
        network: string;
        config?: string;
      }) => {
        const [
          { blockHeaderID, blockToJSON, encodeBlock },
          { parseHex },
          { createGenesisBlock },
          { loadConfig },
          { applicationModules },
        ] = await Promise.all([
          import('../../../lib/chain/block.js'),
          import('../../../lib/crypto/bytes.js'),
          import('../../../engine/genesis.js'),
          import('../../config/load.js'),
          import('../../modules.js'),
        ]);
        const config = loadConfig({
          network: options.network,
          ...(options.config !== undefined ? { config: options.config } : {}),
        });
        const block = createGenesisBlock(
          {
            assets: readAssets(options.assetsFile),
            chainID: Buffer.from(config.genesis.chainID, 'hex'),
            height: options.height,
            ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
            ...(options.previousBlockId !== undefined
              ? { previousBlockID: parseHex(options.previousBlockId, 'previous block ID', 32) }
              : {}),
          },
          applicationModules(config),
        );
        const dir = absolutePath(options.output);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'genesis_block.blob'), encodeBlock(block), { mode: 0o600 });
        if (options.exportJson === true)
          writeFileSync(join(dir, 'genesis_block.json'), JSON.stringify(blockToJSON(block), undefined, '  '), {
            mode: 0o600,
          });
        // Klayr Core's line, then the block's ID
        process.stdout.write(
          `Genesis block files saved at: ${dir}\nGenesis block ID: ${blockHeaderID(block.header).toString('hex')}\n`,
        );
      },
    );
