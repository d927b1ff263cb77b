import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { ACCOUNT_KEY_PATH, addNodeFlags, uint64 } from '../flags.js';

interface CreateOptions extends NodeOptions {
  params: string;
  passphrase?: string;
  keyDerivationPath: string;
  nonce?: bigint;
  offline?: boolean;
  chainId?: string;
  json?: boolean;
}

/** `kestrel transaction:create <module> <command> <fee>`: a signed transaction; its nonce from the node unless --offline. */
export const transactionCreateCommand = (): Command =>
  addNodeFlags(
    new Command('transaction:create')
      .description('Create a transaction signed with a passphrase (params as JSON, bytes as hex, amounts as strings).')
      .argument('<module>', 'Module, e.g. token')
      .argument('<command>', 'Command, e.g. transfer')
      .argument('<fee>', 'Fee in beddows', uint64)
      .option('--params <json>', 'Command params as JSON.', '{}')
      .option('-p, --passphrase <passphrase>', 'Passphrase of the sender (asked for, hidden, when absent).')
      .option('--key-derivation-path <path>', 'Key derivation path of the sender.', ACCOUNT_KEY_PATH)
      .option('--nonce <nonce>', 'Nonce (required with --offline).', uint64)
      .option('--offline', 'Do not ask the node for the nonce.')
      .option('--chain-id <hex>', "Chain ID (default: the node's, or the devnet's offline).")
      .option('--json', 'Print the transaction as JSON instead of hex.'),
  ).action(async (module: string, command: string, fee: bigint, options: CreateOptions) => {
    const [
      { codec },
      { addressFromPublicKey, addressToKlayr32, ed25519KeyPairFromPassphraseAndPath },
      { signTransaction },
      { loadConfig },
      { applicationModules },
      { printTransaction },
      { readPassphrase },
      { withNode },
    ] = await Promise.all([
      import('../../../lib/codec/index.js'),
      import('../../../lib/crypto/index.js'),
      import('../../../lib/transaction/index.js'),
      import('../../config/load.js'),
      import('../../modules.js'),
      import('./encoded.js'),
      import('../prompt.js'),
      import('../node_client.js'),
    ]);
    // the params schema of the module's command, from Kestrel's module set (works offline)
    const schema = applicationModules(loadConfig())
      .find((m) => m.name === module)
      ?.commands?.find((c) => c.name === command)?.schema;
    if (schema === undefined) throw new Error(`Command ${module}:${command} is not registered.`);
    let paramsJSON: unknown;
    try {
      paramsJSON = JSON.parse(options.params);
    } catch (e) {
      throw new Error(`--params must be JSON: ${(e as Error).message}`);
    }
    const params = codec.fromJSON(schema, paramsJSON);
    codec.validate(schema, params);
    const offlineNonce = options.nonce;
    // before the passphrase is asked for: a flag missing is told first
    if (options.offline === true && offlineNonce === undefined) throw new Error('--nonce is required with --offline.');
    const passphrase = await readPassphrase(options.passphrase);
    const { privateKey, publicKey } = ed25519KeyPairFromPassphraseAndPath(passphrase, options.keyDerivationPath);
    const { nonce, chainID } =
      options.offline === true && offlineNonce !== undefined
        ? { nonce: offlineNonce, chainID: options.chainId ?? loadConfig().genesis.chainID }
        : await withNode(options, async (client) => {
            const info = (await client.invoke('system_getNodeInfo')) as { chainID: string };
            const address = addressToKlayr32(addressFromPublicKey(publicKey));
            const account = (await client.invoke('auth_getAuthAccount', { address }).catch(() => ({ nonce: '0' }))) as {
              nonce: string;
            };
            return { chainID: options.chainId ?? info.chainID, nonce: options.nonce ?? BigInt(account.nonce) };
          });
    const tx = signTransaction(
      {
        module,
        command,
        nonce,
        fee,
        senderPublicKey: publicKey,
        params: codec.encode(schema, params),
        signatures: [],
      },
      Buffer.from(chainID, 'hex'),
      privateKey,
    );
    printTransaction(tx, options.json);
  });
