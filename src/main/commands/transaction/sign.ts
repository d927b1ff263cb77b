import { Command } from 'commander';
import { ACCOUNT_KEY_PATH } from '../flags.js';

/** `kestrel transaction:sign <hex>`: adds the signature of a passphrase (single-signature accounts). */
export const transactionSignCommand = (): Command =>
  new Command('transaction:sign')
    .description('Sign an encoded transaction with a passphrase.')
    .argument('<transaction>', 'Encoded transaction (hex)')
    .option('-p, --passphrase <passphrase>', 'Passphrase of the sender (asked for, hidden, when absent).')
    .option('--key-derivation-path <path>', 'Key derivation path of the sender.', ACCOUNT_KEY_PATH)
    .option(
      '--chain-id <hex>',
      'Chain ID (default: the chain ID of the config the node would start with, as config:show prints it).',
    )
    .option('--json', 'Print the transaction as JSON instead of hex.')
    .action(
      async (
        hex: string,
        options: { passphrase?: string; keyDerivationPath: string; chainId?: string; json?: boolean },
      ) => {
        const [
          { ed25519KeyPairFromPassphraseAndPath },
          { signTransaction },
          { loadConfig },
          { parseTransaction, printTransaction },
          { readPassphrase },
        ] = await Promise.all([
          import('../../../lib/crypto/index.js'),
          import('../../../lib/transaction/index.js'),
          import('../../config/load.js'),
          import('./encoded.js'),
          import('../prompt.js'),
        ]);
        const tx = parseTransaction(hex);
        const chainID = options.chainId ?? loadConfig().genesis.chainID;
        const passphrase = await readPassphrase(options.passphrase);
        const { privateKey, publicKey } = ed25519KeyPairFromPassphraseAndPath(passphrase, options.keyDerivationPath);
        if (!publicKey.equals(tx.senderPublicKey))
          throw new Error('The passphrase does not belong to the sender of the transaction.');
        printTransaction(
          signTransaction({ ...tx, signatures: [] }, Buffer.from(chainID, 'hex'), privateKey),
          options.json,
        );
      },
    );
