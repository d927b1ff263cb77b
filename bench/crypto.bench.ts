import { addressFromPublicKey, addressToKlayr32, klayr32ToAddress } from '../src/lib/crypto/index.js';
import { decodeTransaction, encodeTransaction, verifyTransactionSignatures } from '../src/lib/transaction/index.js';
import { chainID, sender, transfer } from './fixtures.js';
import { runSuite } from './harness.js';
import { klayrChain, klayrCrypto } from './klayr.js';

const txBytes = encodeTransaction(transfer());
const address = addressFromPublicKey(sender.publicKey);
const text = addressToKlayr32(address);

/** Klayr's path for the same check: Transaction.fromBytes, then auth's verifySignature (ed.verifyData on the signing bytes). */
const klayrVerify = (): void => {
  const t = klayrChain.Transaction.fromBytes(txBytes);
  if (
    !klayrCrypto.ed.verifyData(
      klayrChain.TAG_TRANSACTION,
      chainID,
      t.getSigningBytes(),
      t.signatures[0],
      t.senderPublicKey,
    )
  )
    throw new Error('invalid');
};

export const cryptoBench = () =>
  runSuite('crypto', [
    {
      name: 'decode + verify transfer signature',
      ours: () => verifyTransactionSignatures(decodeTransaction(txBytes), chainID),
      baseline: klayrVerify,
      baselineName: '@klayr/chain + @klayr/cryptography',
      goal: 1,
    },
    {
      name: 'address -> klayr32',
      ours: () => addressToKlayr32(address),
      baseline: () => klayrCrypto.address.getKlayr32AddressFromAddress(address),
      baselineName: '@klayr/cryptography',
    },
    {
      name: 'klayr32 -> address',
      ours: () => klayr32ToAddress(text),
      baseline: () => klayrCrypto.address.getAddressFromKlayr32Address(text),
      baselineName: '@klayr/cryptography',
    },
    {
      name: 'public key -> klayr32',
      ours: () => addressToKlayr32(addressFromPublicKey(sender.publicKey)),
      baseline: () => klayrCrypto.address.getKlayr32AddressFromPublicKey(sender.publicKey),
      baselineName: '@klayr/cryptography',
    },
  ]);
