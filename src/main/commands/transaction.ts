import { Command, InvalidArgumentError } from 'commander';
import { codec } from '../../lib/codec/index.js';
import { addressFromPublicKey, addressToKlayr32, ed25519KeyPairFromPassphraseAndPath } from '../../lib/crypto/index.js';
import { decodeTransaction, encodeTransaction, signTransaction, transactionID, transactionToJSON, validateTransaction } from '../../lib/transaction/index.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import { loadConfig } from '../config/index.js';
import { applicationModules } from '../modules.js';
import { readSecret } from './keys_create.js';
import { addNodeFlags, printJSON, withNode } from './node_client.js';
import type { NodeOptions } from './node_client.js';

const DEFAULT_KEY_PATH = "m/44'/134'/0'";

const uint64 = (value: string): bigint => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer.');
  return BigInt(value);
};

/** The params schema of a module's command, from Kestrel's module set (works offline). */
const commandSchema = (module: string, command: string) => {
  const found = applicationModules(loadConfig())
    .find((m) => m.name === module)
    ?.commands?.find((c) => c.name === command);
  if (found === undefined) throw new Error(`Command ${module}:${command} is not registered.`);
  return found.schema;
};

const parseTransaction = (hex: string): TransactionObject => {
  if (!/^([0-9a-f]{2})+$/i.test(hex)) throw new Error('The transaction must be hex.');
  const tx = decodeTransaction(Buffer.from(hex, 'hex'));
  validateTransaction(tx);
  return tx;
};

const output = (tx: TransactionObject, json: boolean | undefined) =>
  printJSON(json === true ? transactionToJSON(tx) : { transaction: encodeTransaction(tx).toString('hex') });

/** `kestrel transaction:create <module> <command> <fee>`: a signed transaction; its nonce from the node unless --offline. */
export const transactionCreateCommand = (): Command =>
  addNodeFlags(
    new Command('transaction:create')
      .description('Create a transaction signed with a passphrase (params as JSON, bytes as hex, amounts as strings).')
      .argument('<module>', 'Module, e.g. token')
      .argument('<command>', 'Command, e.g. transfer')
      .argument('<fee>', 'Fee in beddows', uint64)
      .option('--params <json>', 'Command params as JSON.', '{}')
      .option('-p, --passphrase <passphrase>', 'Passphrase of the sender (typed on standard input when absent).')
      .option('--key-derivation-path <path>', 'Key derivation path of the sender.', DEFAULT_KEY_PATH)
      .option('--nonce <nonce>', 'Nonce (required with --offline).', uint64)
      .option('--offline', 'Do not ask the node for the nonce.')
      .option('--chain-id <hex>', 'Chain ID (default: the node\'s, or the devnet\'s offline).')
      .option('--json', 'Print the transaction as JSON instead of hex.'),
  ).action(async (module: string, command: string, fee: bigint, options: NodeOptions & { params: string; passphrase?: string; keyDerivationPath: string; nonce?: bigint; offline?: boolean; chainId?: string; json?: boolean }) => {
    const schema = commandSchema(module, command);
    let paramsJSON: unknown;
    try {
      paramsJSON = JSON.parse(options.params);
    } catch (e) {
      throw new Error(`--params must be JSON: ${(e as Error).message}`);
    }
    const params = codec.fromJSON(schema, paramsJSON);
    codec.validate(schema, params);
    const passphrase = await readSecret(options.passphrase, 'your secret passphrase');
    const { privateKey, publicKey } = ed25519KeyPairFromPassphraseAndPath(passphrase, options.keyDerivationPath);
    let { nonce } = options;
    let chainID = options.chainId;
    if (options.offline === true) {
      if (nonce === undefined) throw new Error('--nonce is required with --offline.');
      chainID ??= loadConfig().genesis.chainID;
    } else {
      const fromNode = await withNode(options, async (client) => {
        const info = (await client.invoke('system_getNodeInfo')) as { chainID: string };
        const account = (await client.invoke('auth_getAuthAccount', { address: ed25519Address(publicKey) }).catch(() => ({ nonce: '0' }))) as { nonce: string };
        return { chainID: info.chainID, nonce: BigInt(account.nonce) };
      });
      nonce ??= fromNode.nonce;
      chainID ??= fromNode.chainID;
    }
    const tx = signTransaction({ module, command, nonce: nonce!, fee, senderPublicKey: publicKey, params: codec.encode(schema, params), signatures: [] }, Buffer.from(chainID!, 'hex'), privateKey);
    output(tx, options.json);
  });

/** `kestrel transaction:sign <hex>`: adds the signature of a passphrase (single-signature accounts). */
export const transactionSignCommand = (): Command =>
  new Command('transaction:sign')
    .description('Sign an encoded transaction with a passphrase.')
    .argument('<transaction>', 'Encoded transaction (hex)')
    .option('-p, --passphrase <passphrase>', 'Passphrase of the sender (typed on standard input when absent).')
    .option('--key-derivation-path <path>', 'Key derivation path of the sender.', DEFAULT_KEY_PATH)
    .option('--chain-id <hex>', 'Chain ID.', loadConfig().genesis.chainID)
    .option('--json', 'Print the transaction as JSON instead of hex.')
    .action(async (hex: string, options: { passphrase?: string; keyDerivationPath: string; chainId: string; json?: boolean }) => {
      const tx = parseTransaction(hex);
      const passphrase = await readSecret(options.passphrase, 'your secret passphrase');
      const { privateKey, publicKey } = ed25519KeyPairFromPassphraseAndPath(passphrase, options.keyDerivationPath);
      if (!publicKey.equals(tx.senderPublicKey)) throw new Error('The passphrase does not belong to the sender of the transaction.');
      output(signTransaction({ ...tx, signatures: [] }, Buffer.from(options.chainId, 'hex'), privateKey), options.json);
    });

/** `kestrel transaction:send <hex>`: posts an encoded transaction to the running node's pool. */
export const transactionSendCommand = (): Command =>
  addNodeFlags(new Command('transaction:send').description('Send an encoded transaction to the running node (txpool_postTransaction).').argument('<transaction>', 'Encoded transaction (hex)')).action(
    async (hex: string, options: NodeOptions) => {
      const tx = parseTransaction(hex);
      const result = await withNode(options, (client) => client.invoke('txpool_postTransaction', { transaction: hex }));
      printJSON({ ...(result as object), id: transactionID(tx).toString('hex') }, options.pretty === true);
    },
  );

const ed25519Address = (publicKey: Buffer): string => addressToKlayr32(addressFromPublicKey(publicKey));
