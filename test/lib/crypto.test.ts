import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import * as k from '../../src/lib/crypto/index.js';
import { devnetPassphrase, devValidators } from '../helpers/devnet.js';
import { klayrCrypto, klayrInteropConstants as klayrFramework } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';

const rng = new Rng(42);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('sha256', () => {
  it('matches node:crypto for inputs of many lengths, one-shot, concatenated and into a buffer', () => {
    for (let n = 0; n < 300; n += 7) {
      const data = rng.bytes(n);
      const expected = createHash('sha256').update(data).digest('hex');
      assert.equal(hex(k.sha256(data)), expected);
      assert.equal(hex(k.sha256Concat(data.subarray(0, n >> 1), data.subarray(n >> 1))), expected);
      const out = Buffer.alloc(32);
      k.sha256Into(out, data);
      assert.equal(hex(out), expected);
    }
  });
});

describe('ed25519 and tagged signing', () => {
  it('key pairs, signatures and verification equal @klayr/cryptography', () => {
    for (let i = 0; i < 200; i++) {
      const seed = rng.bytes(32);
      const ours = k.keyPairFromSeed(seed);
      const theirs = klayrCrypto.legacy.getPrivateAndPublicKeyFromPassphrase(hex(seed));
      const legacy = k.legacyKeyPairFromPassphrase(hex(seed));
      assert.equal(hex(legacy.publicKey), hex(theirs.publicKey));
      assert.equal(hex(legacy.privateKey), hex(theirs.privateKey));
      assert.equal(hex(k.publicKeyFromPrivateKey(ours.privateKey)), hex(ours.publicKey));
      const chainID = rng.bytes(4);
      const data = rng.bytes(rng.int(200));
      const tag = rng.pick([
        k.MESSAGE_TAG_TRANSACTION,
        k.MESSAGE_TAG_BLOCK_HEADER,
        k.MESSAGE_TAG_MULTISIG_REG,
        k.createMessageTag('CE'),
      ]);
      const signature = k.signData(tag, chainID, data, ours.privateKey);
      assert.equal(hex(signature), hex(klayrCrypto.ed.signDataWithPrivateKey(tag, chainID, data, ours.privateKey)));
      assert.equal(k.verifyData(tag, chainID, data, signature, ours.publicKey), true);
      assert.equal(klayrCrypto.ed.verifyData(tag, chainID, data, signature, ours.publicKey), true);
      const tampered = Buffer.from(signature);
      tampered[rng.int(64)]! ^= 1 << rng.int(8);
      assert.equal(k.verifyData(tag, chainID, data, tampered, ours.publicKey), false);
      assert.equal(k.verifyData(tag, Buffer.from([9, 9, 9, 9]), data, signature, ours.publicKey), false);
    }
  });

  it('verification answers false, never throws, for keys and signatures of the wrong length', () => {
    const { publicKey, privateKey } = k.keyPairFromSeed(rng.bytes(32));
    const sig = k.signDetached(Buffer.from('m'), privateKey);
    assert.equal(k.verifyDetached(Buffer.from('m'), sig.subarray(1), publicKey), false);
    assert.equal(k.verifyDetached(Buffer.from('m'), sig, publicKey.subarray(1)), false);
    assert.throws(() => k.signDetached(Buffer.from('m'), privateKey.subarray(1)), /64 bytes/);
    assert.throws(() => k.keyPairFromSeed(Buffer.alloc(31)), /32 bytes/);
  });

  it('message tags follow createMessageTag', () => {
    assert.equal(k.MESSAGE_TAG_TRANSACTION, klayrCrypto.utils.createMessageTag('TX'));
    assert.equal(k.MESSAGE_TAG_BLOCK_HEADER, klayrCrypto.utils.createMessageTag('BH'));
    assert.equal(k.MESSAGE_TAG_MULTISIG_REG, klayrCrypto.utils.createMessageTag('RMSG'));
    assert.equal(k.MESSAGE_TAG_CERTIFICATE, klayrCrypto.utils.createMessageTag('CE'));
    assert.equal(k.MESSAGE_TAG_CHAIN_REG, klayrFramework.MESSAGE_TAG_CHAIN_REG);
    assert.equal(k.MESSAGE_TAG_NON_PROTOCOL_MESSAGE, klayrCrypto.constants.MESSAGE_TAG_NON_PROTOCOL_MESSAGE);
    assert.equal(k.createMessageTag('RMSG', 2), klayrCrypto.utils.createMessageTag('RMSG', 2));
    assert.throws(() => k.createMessageTag('bad-tag'), /alphanumeric/);
  });
});

describe('addresses', () => {
  it('binary and klayr32 addresses equal @klayr/cryptography both ways', () => {
    for (let i = 0; i < 2000; i++) {
      const publicKey = rng.bytes(32);
      const address = k.addressFromPublicKey(publicKey);
      assert.equal(hex(address), hex(klayrCrypto.address.getAddressFromPublicKey(publicKey)));
      const text = k.addressToKlayr32(address);
      assert.equal(text, klayrCrypto.address.getKlayr32AddressFromAddress(address));
      assert.equal(k.klayr32FromPublicKey(publicKey), klayrCrypto.address.getKlayr32AddressFromPublicKey(publicKey));
      assert.equal(hex(k.klayr32ToAddress(text)), hex(address));
    }
  });

  it('invalid klayr32 addresses are refused with the same reason as Klayr', () => {
    const good = k.klayr32FromPublicKey(rng.bytes(32));
    const bad = [
      good.slice(0, 40),
      `lsk${good.slice(3)}`,
      `${good.slice(0, 10)}l${good.slice(11)}`,
      `${good.slice(0, 10)}${good[10] === 'z' ? 'x' : 'z'}${good.slice(11)}`,
      good.toUpperCase(),
      '',
    ];
    for (const address of bad) {
      let klayrMessage = '';
      try {
        klayrCrypto.address.validateKlayr32Address(address);
      } catch (e) {
        klayrMessage = (e as Error).message;
      }
      assert.notEqual(klayrMessage, '', `Klayr accepts ${address}`);
      assert.equal(k.validateKlayr32(address), klayrMessage);
      assert.throws(() => k.klayr32ToAddress(address), { message: klayrMessage });
    }
    assert.equal(k.validateKlayr32(good), undefined);
    assert.throws(() => k.addressToKlayr32(Buffer.alloc(19)), /20 bytes/);
  });

  it('klayr32ToAddressInto decodes at an offset, and writes nothing for an invalid address or too little room', () => {
    const address = rng.bytes(20);
    const text = k.addressToKlayr32(address);
    const out = Buffer.alloc(28, 0xee);
    k.klayr32ToAddressInto(text, out, 5);
    assert.equal(hex(out), `${'ee'.repeat(5)}${hex(address)}${'ee'.repeat(3)}`);
    const untouched = Buffer.alloc(28, 0xee);
    assert.throws(() => k.klayr32ToAddressInto(text.slice(0, 40), untouched, 0), /length/);
    assert.throws(() => k.klayr32ToAddressInto(text, untouched, 9), /no room for 20 bytes/);
    assert.equal(hex(untouched), 'ee'.repeat(28));
  });
});

describe('key derivation', () => {
  const passphrase = devnetPassphrase();
  const keys = devValidators();

  it('reproduces every key of the 103 devnet validators from the devnet passphrase (ed25519, BLS, proofs of possession)', () => {
    const seed = k.passphraseToSeed(passphrase);
    for (const key of keys) {
      const account = k.ed25519KeyPairFromSeedAndPath(seed, key.keyPath);
      assert.equal(hex(account.publicKey), key.publicKey);
      assert.equal(hex(account.privateKey), key.privateKey);
      assert.equal(k.klayr32FromPublicKey(account.publicKey), key.address);
      const generator = k.ed25519KeyPairFromSeedAndPath(seed, key.plain.generatorKeyPath);
      assert.equal(hex(generator.publicKey), key.plain.generatorKey);
      assert.equal(hex(generator.privateKey), key.plain.generatorPrivateKey);
      const bls = k.blsPrivateKeyFromSeedAndPath(seed, key.plain.blsKeyPath);
      assert.equal(hex(bls), key.plain.blsPrivateKey);
      assert.equal(hex(k.blsPublicKeyFromPrivateKey(bls)), key.plain.blsKey);
    }
    for (const key of keys.slice(0, 5)) {
      assert.equal(hex(k.blsPopProve(Buffer.from(key.plain.blsPrivateKey, 'hex'))), key.plain.blsProofOfPossession);
    }
  });

  it('ed25519 derivation equals @klayr/cryptography for random paths', async () => {
    for (let i = 0; i < 20; i++) {
      const path = `m/44'/134'/${rng.int(1000)}'/${rng.int(5)}'`;
      const theirs: Buffer = await klayrCrypto.ed.getPrivateKeyFromPhraseAndPath(passphrase, path);
      assert.equal(hex(k.ed25519KeyPairFromPassphraseAndPath(passphrase, path).privateKey), hex(theirs));
    }
    assert.equal(hex(await k.passphraseToSeedAsync(passphrase)), hex(k.passphraseToSeed(passphrase)));
  });

  it('bad derivation paths are refused', () => {
    for (const path of ['44/134', "m/44'/x'", 'm/4294967296', "m/2147483648'", 'n/1']) {
      assert.throws(() => k.parseKeyDerivationPath(path), /Invalid key derivation path|out of range/, path);
    }
    assert.deepEqual(
      k.parseKeyDerivationPath("m/44'/134'/0'"),
      klayrCrypto.utils.parseKeyDerivationPath("m/44'/134'/0'"),
    );
  });
});

describe('BLS', () => {
  const keys = devValidators().slice(0, 8);
  const sks = keys.map((x) => Buffer.from(x.plain.blsPrivateKey, 'hex'));
  const pks = keys.map((x) => Buffer.from(x.plain.blsKey, 'hex'));
  const chainID = Buffer.from('04000000', 'hex');

  it('signs and verifies tagged data; a wrong key, message or signature fails', () => {
    const message = rng.bytes(100);
    const signature = k.blsSignData(k.MESSAGE_TAG_CERTIFICATE, chainID, message, sks[0]!);
    assert.equal(signature.length, 96);
    assert.equal(k.blsVerifyData(k.MESSAGE_TAG_CERTIFICATE, chainID, message, signature, pks[0]!), true);
    assert.equal(k.blsVerifyData(k.MESSAGE_TAG_CERTIFICATE, chainID, message, signature, pks[1]!), false);
    assert.equal(k.blsVerifyData(k.MESSAGE_TAG_CERTIFICATE, chainID, rng.bytes(100), signature, pks[0]!), false);
    assert.equal(k.blsVerify(pks[0]!, message, Buffer.alloc(96)), false);
    assert.equal(k.blsVerify(Buffer.alloc(48), message, signature), false);
  });

  it('aggregate commits: the signers selected by aggregation bits verify, with weights and threshold', () => {
    const message = rng.bytes(64);
    const signers = [0, 2, 3, 7];
    const pairs = signers.map((i) => ({
      publicKey: pks[i]!,
      signature: k.blsSignData(k.MESSAGE_TAG_CERTIFICATE, chainID, message, sks[i]!),
    }));
    const { aggregationBits, signature } = k.createAggSig(pks, pairs);
    assert.equal(hex(aggregationBits), (1 | 4 | 8 | 128).toString(16).padStart(2, '0'));
    assert.equal(k.verifyAggSig(pks, aggregationBits, signature, k.MESSAGE_TAG_CERTIFICATE, chainID, message), true);
    assert.equal(
      k.verifyAggSig(pks, Buffer.from([1 | 4 | 8]), signature, k.MESSAGE_TAG_CERTIFICATE, chainID, message),
      false,
    );
    assert.equal(
      k.verifyAggSig(pks, Buffer.from([0x8d, 0]), signature, k.MESSAGE_TAG_CERTIFICATE, chainID, message),
      false,
    );
    const weights = pks.map(() => 10n);
    assert.equal(
      k.verifyWeightedAggSig(
        pks,
        aggregationBits,
        signature,
        k.MESSAGE_TAG_CERTIFICATE,
        chainID,
        message,
        weights,
        40n,
      ),
      true,
    );
    assert.equal(
      k.verifyWeightedAggSig(
        pks,
        aggregationBits,
        signature,
        k.MESSAGE_TAG_CERTIFICATE,
        chainID,
        message,
        weights,
        41n,
      ),
      false,
    );
    assert.equal(k.aggregationBitsValid(9, Buffer.from([0xff, 0x02])), false);
    assert.equal(k.aggregationBitsValid(9, Buffer.from([0xff, 0x01])), true);
  });

  it('proofs of possession verify for their key only; invalid keys are detected', () => {
    for (const key of keys) {
      const pop = Buffer.from(key.plain.blsProofOfPossession, 'hex');
      assert.equal(k.blsPopVerify(Buffer.from(key.plain.blsKey, 'hex'), pop), true);
    }
    assert.equal(k.blsPopVerify(pks[1]!, Buffer.from(keys[0]!.plain.blsProofOfPossession, 'hex')), false);
    assert.equal(k.blsValidateKey(pks[0]!), true);
    assert.equal(k.blsValidateKey(Buffer.alloc(48)), false);
    assert.equal(k.blsValidateKey(Buffer.concat([Buffer.from([0xc0]), Buffer.alloc(47)])), false);
    assert.throws(
      () =>
        k.blsPublicKeyFromPrivateKey(
          Buffer.from('73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001', 'hex'),
        ),
      /not valid/,
    );
  });
});
