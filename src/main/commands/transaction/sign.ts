import { Command } from 'commander';
import type { ModuleMetadata } from '../../../lib/endpoint/metadata.js';
import type { NodeOptions } from '../flags.js';
import { ACCOUNT_KEY_PATH, addNodeFlags, refuseNodeFlags } from '../flags.js';

interface SignOptions extends NodeOptions {
  passphrase?: string;
  keyDerivationPath: string;
  offline?: boolean;
  chainId?: string;
  mandatoryKeys?: string[];
  optionalKeys?: string[];
  json?: boolean;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * `kestrel transaction:sign <hex>`, as Klayr Core's: adds the passphrase's signature to a
 * transaction, signed or not yet. Online, the chain ID and the sender's multisignature keys come
 * from the running node; with --offline, from --chain-id and --mandatory-keys / --optional-keys.
 */
export const transactionSignCommand = (): Command =>
  addNodeFlags(
    new Command('transaction:sign')
      .description('Sign encoded transaction.')
      .argument('<transaction>', 'The transaction to be signed encoded as hex string')
      .option('-p, --passphrase <passphrase>', 'Passphrase of the signer (asked for, hidden, when absent).')
      .option(
        '-k, --key-derivation-path <path>',
        'Key derivation path to use to derive keypair from passphrase ("legacy": the legacy key pair).',
        ACCOUNT_KEY_PATH,
      )
      .option('--offline', 'Sign without a running node (needs --chain-id).')
      .option('--chain-id <hex>', 'Chain ID (with --offline).')
      .option('--mandatory-keys <hex>', 'Mandatory publicKey string in hex format (repeat for each key).', collect)
      .option('--optional-keys <hex>', 'Optional publicKey string in hex format (repeat for each key).', collect)
      .option('-j, --json', 'Print the transaction as JSON too.'),
  ).action(async (hex: string, options: SignOptions, self: Command) => {
    const [{ parseHex }, lib, tools, { withNode }, chainJSON] = await Promise.all([
      import('../../../lib/crypto/index.js'),
      import('../../../lib/transaction/index.js'),
      import('./encoded.js'),
      import('../node_client.js'),
      import('../chain_json.js'),
    ]);
    if (options.offline === true && options.chainId === undefined)
      throw new Error('All of the following must be provided when using --offline: --chain-id');
    if (options.offline === true) refuseNodeFlags(self);
    const tx = tools.parseTransaction(hex);
    const keysOf = (flag: string, keys: string[] | undefined): Buffer[] =>
      (keys ?? []).map((k) => parseHex(k, flag, 32));
    const sign = async (
      chainID: string,
      multisig: { mandatoryKeys: Buffer[]; optionalKeys: Buffer[] } | undefined,
      metadata: readonly ModuleMetadata[],
    ): Promise<void> => {
      const schema = chainJSON.paramsSchemaOf(metadata, tx.module, tx.command);
      const { privateKey } = await tools.keyPairOf(options.passphrase, options.keyDerivationPath);
      const chain = Buffer.from(chainID, 'hex');
      const signed =
        multisig === undefined
          ? lib.signTransaction(tx, chain, privateKey)
          : lib.signMultiSignatureTransaction(tx, chain, privateKey, multisig);
      tools.printTransaction(signed, schema, options, [
        'module',
        'command',
        'nonce',
        'fee',
        'senderPublicKey',
        'params',
        'signatures',
      ]);
    };
    if (options.offline === true) {
      const mandatoryKeys = keysOf('--mandatory-keys', options.mandatoryKeys);
      const optionalKeys = keysOf('--optional-keys', options.optionalKeys);
      const multisig = mandatoryKeys.length + optionalKeys.length > 0 ? { mandatoryKeys, optionalKeys } : undefined;
      await sign(tools.chainIDFlag(options.chainId as string), multisig, await tools.offlineMetadata());
      return;
    }
    await withNode(options, async (client) => {
      const [{ addressFromPublicKey, addressToKlayr32 }, { nodeAuthAccount }] = await Promise.all([
        import('../../../lib/crypto/index.js'),
        import('./node_account.js'),
      ]);
      const { chainID } = (await client.invoke('system_getNodeInfo')) as { chainID: string };
      // as @klayr/api-client's transaction.sign: a multisignature sender's keys from its auth account
      const address = addressToKlayr32(addressFromPublicKey(tx.senderPublicKey));
      const account = await nodeAuthAccount(client, address);
      const multisig =
        account.numberOfSignatures > 0
          ? {
              mandatoryKeys: account.mandatoryKeys.map((k) => Buffer.from(k, 'hex')),
              optionalKeys: account.optionalKeys.map((k) => Buffer.from(k, 'hex')),
            }
          : undefined;
      await sign(chainID, multisig, await chainJSON.nodeModuleMetadata(client));
    });
  });
