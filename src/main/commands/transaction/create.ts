import { Command } from 'commander';
import type { ModuleMetadata } from '../../../lib/endpoint/metadata.js';
import type { NodeOptions } from '../flags.js';
import { ACCOUNT_KEY_PATH, addNodeFlags, refuseNodeFlags, uint64 } from '../flags.js';

interface CreateOptions extends NodeOptions {
  params?: string;
  file?: string;
  passphrase?: string;
  keyDerivationPath: string;
  nonce?: bigint;
  offline?: boolean;
  send?: boolean;
  signature: boolean;
  senderPublicKey?: string;
  chainId?: string;
  json?: boolean;
}

/** The params as JSON, from --params or a .json --file (as Klayr Core; it also prompts for each field, Kestrel asks for one of the two). */
const paramsJSONOf = async (options: CreateOptions, hasFields: boolean): Promise<unknown> => {
  if (options.file !== undefined) {
    if (!options.file.endsWith('.json')) throw new Error('Not a JSON file.');
    const { readFileSync } = await import('node:fs');
    return JSON.parse(readFileSync(options.file, 'utf8'));
  }
  if (options.params !== undefined) return JSON.parse(options.params);
  if (!hasFields) return {};
  throw new Error('Give the command params as JSON with --params (-a) or in a .json file with --file (-f).');
};

/** The sender's key: the passphrase's at --key-derivation-path, or only --sender-public-key with --no-signature. */
const senderOf = async (options: CreateOptions): Promise<{ publicKey: Buffer; privateKey?: Buffer }> => {
  if (!options.signature) {
    if (options.senderPublicKey === undefined) throw new Error('--no-signature needs --sender-public-key (-s).');
    const { parseHex } = await import('../../../lib/crypto/index.js');
    return { publicKey: parseHex(options.senderPublicKey, '--sender-public-key', 32) };
  }
  const { keyPairOf } = await import('./encoded.js');
  return keyPairOf(options.passphrase, options.keyDerivationPath);
};

/**
 * `kestrel transaction:create <module> <command> <fee>`, as Klayr Core's: the nonce and chain ID
 * from the running node (checked against --nonce and --chain-id), or from the flags with --offline;
 * signed by the passphrase, or unsigned with --no-signature.
 */
export const transactionCreateCommand = (): Command =>
  addNodeFlags(
    new Command('transaction:create')
      .description(
        'Create transaction which can be broadcasted to the network (params as JSON, bytes as hex, amounts in beddows as strings).',
      )
      .argument('<module>', 'Registered transaction module.')
      .argument('<command>', 'Registered transaction command.')
      .argument('<fee>', 'Transaction fee in Beddows.', uint64)
      .option('-a, --params <json>', 'Creates transaction with specific params information')
      .option('-f, --file <path>', 'A .json file with the params.')
      .option('-p, --passphrase <passphrase>', 'Passphrase of the sender (asked for, hidden, when absent).')
      .option(
        '-k, --key-derivation-path <path>',
        'Key derivation path to use to derive keypair from passphrase ("legacy": the legacy key pair).',
        ACCOUNT_KEY_PATH,
      )
      .option('--nonce <nonce>', 'Nonce of the transaction (required with --offline).', uint64)
      .option('--offline', 'Create the transaction without a running node (needs --chain-id and --nonce).')
      .option('--chain-id <hex>', 'Chain ID (required with --offline; checked against the node otherwise).')
      .option('--no-signature', 'Creates the transaction without a signature (needs --sender-public-key).')
      .option(
        '-s, --sender-public-key <hex>',
        'The sender public key of an unsigned transaction (with --no-signature).',
      )
      .option('--send', 'Create and immediately send transaction to a node')
      .option('-j, --json', 'Print the transaction as JSON too.'),
  ).action(async (module: string, command: string, fee: bigint, options: CreateOptions, self: Command) => {
    const [{ codec }, { addressFromPublicKey, addressToKlayr32 }, lib, tools, { withNode }, chainJSON] =
      await Promise.all([
        import('../../../lib/codec/index.js'),
        import('../../../lib/crypto/index.js'),
        import('../../../lib/transaction/index.js'),
        import('./encoded.js'),
        import('../node_client.js'),
        import('../chain_json.js'),
      ]);
    // the flags that depend on each other first, as Klayr Core's parser refuses them before anything runs
    if (options.offline === true && (options.chainId === undefined || options.nonce === undefined))
      throw new Error('All of the following must be provided when using --offline: --chain-id, --nonce');
    if (options.offline === true && options.send === true)
      throw new Error('--send cannot also be provided when using --offline');
    if (options.offline === true) refuseNodeFlags(self);
    const chainIDFlag = options.chainId === undefined ? undefined : tools.chainIDFlag(options.chainId);
    const create = async (metadata: readonly ModuleMetadata[], node?: NodeContext) => {
      const schema = chainJSON.paramsSchemaOf(metadata, module, command);
      const params = codec.fromJSON(schema, await paramsJSONOf(options, Object.keys(schema.properties).length > 0));
      codec.validate(schema, params);
      const sender = await senderOf(options);
      const { nonce, chainID } =
        node === undefined
          ? { nonce: options.nonce ?? 0n, chainID: chainIDFlag as string }
          : await node.accountOf(addressToKlayr32(addressFromPublicKey(sender.publicKey)));
      const unsigned = {
        module,
        command,
        nonce,
        fee,
        senderPublicKey: sender.publicKey,
        params: codec.encode(schema, params),
        signatures: [],
      };
      const tx =
        sender.privateKey === undefined
          ? unsigned
          : lib.signTransaction(unsigned, Buffer.from(chainID, 'hex'), sender.privateKey);
      tools.printTransaction(tx, schema, options, [
        'module',
        'command',
        'fee',
        'nonce',
        'senderPublicKey',
        'signatures',
        'params',
      ]);
      return tx;
    };
    if (options.offline === true) {
      await create(await tools.offlineMetadata());
      return;
    }
    await withNode(options, async (client) => {
      const { nodeAuthAccount } = await import('./node_account.js');
      const tx = await create(await chainJSON.nodeModuleMetadata(client), {
        accountOf: async (address) => {
          const { chainID } = (await client.invoke('system_getNodeInfo')) as { chainID: string };
          if (chainIDFlag !== undefined && chainIDFlag !== chainID)
            throw new Error(`Invalid chainID specified, actual: ${chainIDFlag}, expected: ${chainID}.`);
          const account = await nodeAuthAccount(client, address);
          if (options.nonce !== undefined && BigInt(account.nonce) > options.nonce)
            throw new Error(`Invalid nonce specified, actual: ${options.nonce}, expected: ${account.nonce}`);
          return { chainID, nonce: options.nonce ?? BigInt(account.nonce) };
        },
      });
      if (options.send === true) {
        const { transactionId } = (await client.invoke('txpool_postTransaction', {
          transaction: lib.encodeTransaction(tx).toString('hex'),
        })) as { transactionId: string };
        process.stdout.write(`Transaction with id: '${transactionId}' received by node.\n`);
      }
    });
  });

interface NodeContext {
  accountOf(address: string): Promise<{ nonce: bigint; chainID: string }>;
}
