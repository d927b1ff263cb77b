import '../helpers/klayr.js';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { decodeBlock } from '../../src/lib/chain/block.js';
import { encryptWithPassword } from '../../src/lib/crypto/index.js';
import { encodeTransaction, transactionID, verifyTransactionSignatures } from '../../src/lib/transaction/index.js';
import { assertPortFree } from '../../src/main/child_nodes/port_check.js';
import { posWindows } from '../../src/main/child_nodes/pos_windows.js';
import type { KeyEntry } from '../../src/main/commands/keys/derive.js';
import { deriveKeys } from '../../src/main/commands/keys/derive.js';
import { loadConfig } from '../../src/main/config/load.js';
import { readSavedConfig, setPorts } from '../../src/main/interop_network/chain_config.js';
import {
  MAINCHAIN_ID,
  SIDECHAIN_ID,
  SIDECHAIN_NAME,
  SIDECHAIN_TOKEN_ID,
  SIDECHAIN_VALIDATORS,
} from '../../src/main/interop_network/constants.js';
import { createNetwork, readSettings, sidechainKeys } from '../../src/main/interop_network/create_network.js';
import { stringifyEncryptedMessage } from '../../src/main/interop_network/encrypted_message.js';
import { networkLayout } from '../../src/main/interop_network/layout.js';
import type { BFTParametersJSON } from '../../src/main/interop_network/registration.js';
import {
  activeValidators,
  CHAIN_REGISTRATION_FEE,
  registerMainchainTransaction,
  registerSidechainTransaction,
} from '../../src/main/interop_network/registration.js';
import { devnetKeys } from '../../src/main/network/devnet_genesis.js';
import { runCLI } from '../helpers/cli.js';
import { klayrCodec, klayrCrypto, klayrTransactions } from '../helpers/klayr.js';
import { freePort } from '../helpers/ports.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const klayrInteropSchemas: any = require('klayr-framework/dist-node/modules/interoperability/schemas');
const klayrInteropConstants: any = require('klayr-framework/dist-node/modules/interoperability/constants');
const klayrTxSchema: any = klayrTransactions.baseTransactionSchema;

const made: string[] = [];
const tmp = (name: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `kestrel-${name}-`));
  made.push(dir);
  return dir;
};
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

let sidechainKeySet: Promise<KeyEntry[]> | undefined;
const someSidechainKeys = (): Promise<KeyEntry[]> =>
  (sidechainKeySet ??= deriveKeys('pulse toward ride shallow ankle rug cry dynamic vibrant cycle ostrich tiger', {
    count: 4,
    offset: 0,
    chainid: 1,
    addLegacy: false,
    password: undefined,
    cipher: 'aes-128-gcm',
  }));

const bftOf = (keys: readonly KeyEntry[], weights: bigint[], certificateThreshold: bigint): BFTParametersJSON => ({
  validators: keys.map((k, i) => ({ blsKey: k.plain.blsKey, bftWeight: weights[i]!.toString() })),
  certificateThreshold: certificateThreshold.toString(),
});

/** The devnet's first 51 validators with weight 1 and Klayr's threshold, as the devnet's BFT parameters read after genesis. */
const devnetBFT = (): BFTParametersJSON => {
  const keys = devnetKeys().slice(0, 51);
  return bftOf(
    keys,
    keys.map(() => 1n),
    35n,
  );
};

const klayrDecodeTx = (bytes: Buffer): any => klayrCodec.codec.decode(klayrTxSchema, bytes);

describe('network:interop — relayer keys in the chainConnector config', () => {
  it("the key string is one @klayr/cryptography parses and decrypts to the relayer's private key", async () => {
    const privateKey = devnetKeys()[1]!.privateKey;
    const encrypted = await encryptWithPassword(privateKey, 'a password', {
      kdfparams: { iterations: 1, parallelism: 4, memorySize: 1024 },
    });
    const text = stringifyEncryptedMessage(encrypted);
    const parsed = klayrCrypto.encrypt.parseEncryptedMessage(text);
    assert.equal(text, klayrCrypto.encrypt.stringifyEncryptedMessage(parsed));
    assert.equal(await klayrCrypto.encrypt.decryptMessageWithPassword(parsed, 'a password', 'utf-8'), privateKey);
    await assert.rejects(klayrCrypto.encrypt.decryptMessageWithPassword(parsed, 'another password', 'utf-8'));
  });
});

describe('network:interop — registerSidechain (mainchain)', () => {
  it("params decode with klayr-framework's sidechainRegParams: the sidechain's active validators by BLS key, its threshold", async () => {
    const keys = await someSidechainKeys();
    const tx = registerSidechainTransaction({
      mainchainID: Buffer.from(MAINCHAIN_ID, 'hex'),
      sidechainID: Buffer.from(SIDECHAIN_ID, 'hex'),
      name: SIDECHAIN_NAME,
      sidechain: bftOf(keys, [1n, 1n, 0n, 1n], 3n),
      sender: { privateKey: Buffer.from(devnetKeys()[0]!.privateKey, 'hex'), nonce: 7n },
      escrowInitializationFee: 5_000_000n,
    });
    const params = klayrCodec.codec.decode(klayrInteropSchemas.sidechainRegParams, tx.params);
    assert.deepEqual(params.chainID, Buffer.from(SIDECHAIN_ID, 'hex'));
    assert.equal(params.name, SIDECHAIN_NAME);
    assert.equal(params.sidechainCertificateThreshold, 3n);
    const expected = keys
      .filter((_, i) => i !== 2)
      .map((k) => Buffer.from(k.plain.blsKey, 'hex'))
      .sort(Buffer.compare);
    assert.deepEqual(
      params.sidechainValidators.map((v: any) => v.blsKey),
      expected,
    );
    assert.ok(params.sidechainValidators.every((v: any) => v.bftWeight === 1n));
    assert.deepEqual(klayrCodec.codec.encode(klayrInteropSchemas.sidechainRegParams, params), tx.params);
  });

  it('is signed by the sender for the mainchain, with its nonce, and pays the registration and escrow initialization fees on top of the size fee', () => {
    const sender = devnetKeys()[0]!;
    const tx = registerSidechainTransaction({
      mainchainID: Buffer.from(MAINCHAIN_ID, 'hex'),
      sidechainID: Buffer.from(SIDECHAIN_ID, 'hex'),
      name: SIDECHAIN_NAME,
      sidechain: devnetBFT(),
      sender: { privateKey: Buffer.from(sender.privateKey, 'hex'), nonce: 3n },
      escrowInitializationFee: 5_000_000n,
    });
    const decoded = klayrDecodeTx(encodeTransaction(tx));
    assert.equal(decoded.module, 'interoperability');
    assert.equal(decoded.command, 'registerSidechain');
    assert.equal(decoded.nonce, 3n);
    assert.equal(decoded.senderPublicKey.toString('hex'), sender.publicKey);
    const withParams = {
      ...decoded,
      params: klayrCodec.codec.decode(klayrInteropSchemas.sidechainRegParams, decoded.params),
    };
    const signingBytes = klayrTransactions.getSigningBytes(withParams, klayrInteropSchemas.sidechainRegParams);
    assert.ok(
      klayrCrypto.ed.verifyData(
        klayrTransactions.TAG_TRANSACTION,
        Buffer.from(MAINCHAIN_ID, 'hex'),
        signingBytes,
        decoded.signatures[0],
        decoded.senderPublicKey,
      ),
    );
    assert.throws(() => verifyTransactionSignatures(tx, Buffer.from(SIDECHAIN_ID, 'hex')));
    const minFee = klayrTransactions.computeMinFee(withParams, klayrInteropSchemas.sidechainRegParams, {
      additionalFee: CHAIN_REGISTRATION_FEE + 5_000_000n,
    });
    assert.equal(tx.fee, BigInt(minFee));
    assert.equal(CHAIN_REGISTRATION_FEE, klayrInteropConstants.CHAIN_REGISTRATION_FEE);
    assert.equal(transactionID(tx).length, 32);
  });
});

describe('network:interop — registerMainchain (sidechain)', () => {
  const build = async (signers: number[], weights = [1n, 1n, 1n, 1n], threshold = 3n) => {
    const keys = await someSidechainKeys();
    const mainchain = devnetBFT();
    const sidechain = bftOf(keys, weights, threshold);
    const tx = registerMainchainTransaction({
      sidechainID: Buffer.from(SIDECHAIN_ID, 'hex'),
      ownName: SIDECHAIN_NAME,
      mainchain,
      sidechain,
      blsPrivateKeys: signers.map((i) => ({
        blsKey: Buffer.from(keys[i]!.plain.blsKey, 'hex'),
        blsPrivateKey: Buffer.from(keys[i]!.plain.blsPrivateKey, 'hex'),
      })),
      sender: { privateKey: Buffer.from(keys[0]!.privateKey, 'hex'), nonce: 0n },
    });
    return {
      tx,
      keys,
      mainchain,
      sidechain,
      params: klayrCodec.codec.decode(klayrInteropSchemas.mainchainRegParams, tx.params),
    };
  };

  /** What klayr-framework's RegisterMainchainCommand.execute checks, with its schema and @klayr/cryptography. */
  const klayrVerifies = (params: any, sidechain: BFTParametersJSON): boolean => {
    const active = activeValidators(sidechain);
    const message = klayrCodec.codec.encode(klayrInteropSchemas.registrationSignatureMessageSchema, {
      ownName: params.ownName,
      ownChainID: params.ownChainID,
      mainchainValidators: params.mainchainValidators,
      mainchainCertificateThreshold: params.mainchainCertificateThreshold,
    });
    return klayrCrypto.bls.verifyWeightedAggSig(
      active.map((v) => v.blsKey),
      params.aggregationBits,
      params.signature,
      klayrInteropConstants.MESSAGE_TAG_CHAIN_REG,
      params.ownChainID,
      message,
      active.map((v) => v.bftWeight),
      BigInt(sidechain.certificateThreshold),
    );
  };

  it("params decode with klayr-framework's mainchainRegParams: the mainchain's active validators by BLS key and its threshold", async () => {
    const { params, mainchain, tx } = await build([0, 1, 2, 3]);
    assert.deepEqual(params.ownChainID, Buffer.from(SIDECHAIN_ID, 'hex'));
    assert.equal(params.ownName, SIDECHAIN_NAME);
    assert.equal(params.mainchainCertificateThreshold, 35n);
    assert.deepEqual(
      params.mainchainValidators.map((v: any) => v.blsKey.toString('hex')),
      mainchain.validators.map((v) => v.blsKey).sort(),
    );
    assert.deepEqual(klayrCodec.codec.encode(klayrInteropSchemas.mainchainRegParams, params), tx.params);
    assert.equal(tx.command, 'registerMainchain');
  });

  it('the aggregate signature of all sidechain validators verifies as klayr-framework verifies it (tag KLY_CRM_, sidechain chain ID)', async () => {
    const { params, sidechain } = await build([0, 1, 2, 3]);
    assert.equal(klayrInteropConstants.MESSAGE_TAG_CHAIN_REG, 'KLY_CRM_');
    assert.deepEqual(params.aggregationBits, Buffer.from([0b1111]));
    assert.ok(klayrVerifies(params, sidechain));
  });

  it('signed by validators holding the threshold weight, the bits name exactly the signers', async () => {
    const { params, sidechain, keys } = await build([1, 3], [1n, 2n, 1n, 1n], 3n);
    const order = activeValidators(sidechain).map((v) => v.blsKey.toString('hex'));
    const bits = [1, 3].reduce((b, i) => b | (1 << order.indexOf(keys[i]!.plain.blsKey)), 0);
    assert.deepEqual(params.aggregationBits, Buffer.from([bits]));
    assert.ok(klayrVerifies(params, sidechain));
  });

  it('below the threshold the signature does not verify (Klayr would emit invalidRegistrationSignature)', async () => {
    const { params, sidechain } = await build([0, 1]);
    assert.equal(klayrVerifies(params, sidechain), false);
  });

  it('a validator with weight 0 is not in the key list and does not sign', async () => {
    const { params, sidechain } = await build([0, 1, 2, 3], [1n, 1n, 0n, 1n], 3n);
    assert.deepEqual(params.aggregationBits, Buffer.from([0b111]));
    assert.ok(klayrVerifies(params, sidechain));
  });

  it("no active key among the holder's is an error, not a transaction", async () => {
    await assert.rejects(build([2], [1n, 1n, 0n, 1n], 3n), /None of the sidechain validators/);
  });
});

describe('network:interop — creating the network', () => {
  let created: { root: string } | undefined;
  const network = async (): Promise<{ root: string }> => {
    if (created === undefined) {
      const root = join(tmp('interop-create'), 'net');
      await createNetwork(networkLayout(root), 3);
      created = { root };
    }
    return created;
  };

  it('the mainchain data path holds the devnet config with the block time, chainConnector toward the sidechain and its endpoints allowed', async () => {
    const layout = networkLayout((await network()).root);
    const config = loadConfig({ dataPath: layout.mainchain });
    assert.equal(config.genesis.chainID, MAINCHAIN_ID);
    assert.equal(config.genesis.blockTime, 3);
    assert.deepEqual(
      readFileSync(join(layout.mainchain, 'config', 'genesis_block.blob')),
      readFileSync(new URL('../../../src/main/network/devnet/genesis_block.blob', import.meta.url)),
    );
    const connector = (config.plugins as any).chainConnector;
    assert.equal(connector.receivingChainID, SIDECHAIN_ID);
    assert.ok(config.rpc.allowedMethods?.includes('chainConnector'));
  });

  it('the sidechain data path holds its config, keys, passphrase (mode 600) and a genesis block the node config accepts', async () => {
    const layout = networkLayout((await network()).root);
    const config = loadConfig({ dataPath: layout.sidechain });
    assert.equal(config.genesis.chainID, SIDECHAIN_ID);
    assert.equal(config.genesis.blockTime, 3);
    assert.equal((config.modules.fee as any).feeTokenID, SIDECHAIN_TOKEN_ID);
    assert.equal((config.modules.pos as any).numberActiveValidators, SIDECHAIN_VALIDATORS);
    const keys = sidechainKeys(layout.sidechain);
    assert.equal(keys.length, SIDECHAIN_VALIDATORS);
    assert.equal(statSync(join(layout.sidechain, 'config', 'passphrase.json')).mode & 0o777, 0o600);
    assert.equal(statSync(layout.settings).mode & 0o777, 0o600);
    const block = decodeBlock(readFileSync(config.genesis.block.fromFile!));
    assert.deepEqual(
      block.assets.map((a) => a.module),
      ['interoperability', 'pos', 'token'],
    );
    assert.equal(block.header.height, 0);
    assert.equal((config.plugins as any).chainConnector.receivingChainID, MAINCHAIN_ID);
  });

  it("the sidechain genesis gives every key the sidechain token and makes every key a genesis validator (decoded with Klayr's schemas)", async () => {
    const layout = networkLayout((await network()).root);
    const config = loadConfig({ dataPath: layout.sidechain });
    const block = decodeBlock(readFileSync(config.genesis.block.fromFile!));
    const keys = sidechainKeys(layout.sidechain);
    const tokenSchema = require('klayr-framework/dist-node/modules/token/schemas').genesisTokenStoreSchema;
    const posSchema = require('klayr-framework/dist-node/modules/pos/schemas').genesisStoreSchema;
    const token = klayrCodec.codec.toJSON(
      tokenSchema,
      klayrCodec.codec.decode(tokenSchema, block.assets.find((a) => a.module === 'token')!.data),
    );
    const pos = klayrCodec.codec.toJSON(
      posSchema,
      klayrCodec.codec.decode(posSchema, block.assets.find((a) => a.module === 'pos')!.data),
    );
    assert.deepEqual(new Set(token.userSubstore.map((u: any) => u.address)), new Set(keys.map((k) => k.address)));
    assert.ok(token.userSubstore.every((u: any) => u.tokenID === SIDECHAIN_TOKEN_ID));
    assert.deepEqual(
      pos.genesisData.initValidators,
      keys.map((k) => k.address),
    );
    assert.deepEqual(
      pos.validators.map((v: any) => v.blsKey),
      keys.map((k) => k.plain.blsKey),
    );
  });

  it("each run sets its ports in both configs: the own RPC port, the receiving chain's WS URL, the P2P server", async () => {
    const layout = networkLayout((await network()).root);
    setPorts(layout.mainchain, 21001, 21002, '127.0.0.2');
    setPorts(layout.sidechain, 21002, 21001, '127.0.0.3');
    assert.equal(readSavedConfig(layout.mainchain).rpc!.port, 21001);
    assert.deepEqual(readSavedConfig(layout.mainchain).network, {
      ...readSavedConfig(layout.mainchain).network,
      host: '127.0.0.2',
      port: 21001,
      seedPeers: [],
    });
    assert.equal(readSavedConfig(layout.sidechain).network!.host, '127.0.0.3');
    assert.equal(
      readSavedConfig(layout.mainchain).plugins!.chainConnector!.receivingChainWsURL,
      'ws://127.0.0.1:21002/rpc-ws',
    );
    assert.equal(
      readSavedConfig(layout.sidechain).plugins!.chainConnector!.receivingChainWsURL,
      'ws://127.0.0.1:21001/rpc-ws',
    );
    assert.ok(
      (readSavedConfig(layout.mainchain).plugins!.chainConnector!.encryptedPrivateKey as string).startsWith(
        'kdf=argon2id&cipher=aes-128-gcm&',
      ),
    );
  });

  it("network.json opens both relayer keys: the mainchain connector's is a sidechain account, the sidechain connector's a mainchain account", async () => {
    const layout = networkLayout((await network()).root);
    const { relayerPassword } = readSettings(layout)!;
    const open = async (dataPath: string): Promise<string> =>
      klayrCrypto.encrypt.decryptMessageWithPassword(
        klayrCrypto.encrypt.parseEncryptedMessage(
          readSavedConfig(dataPath).plugins!.chainConnector!.encryptedPrivateKey,
        ),
        relayerPassword,
        'utf-8',
      );
    assert.equal(await open(layout.mainchain), sidechainKeys(layout.sidechain)[1]!.privateKey);
    assert.equal(await open(layout.sidechain), devnetKeys()[1]!.privateKey);
  });

  it('a non-empty directory that is no network is refused and left as it was', async () => {
    const root = tmp('interop-busy');
    writeFileSync(join(root, 'something'), 'x');
    await assert.rejects(createNetwork(networkLayout(root), 3), /is not empty and holds no interop network/);
    assert.ok(!existsSync(join(root, 'mainchain')));
    assert.ok(!existsSync(join(root, 'sidechain')));
  });
});

describe('network:interop — a mainchain genesis block of its own (--mainchain-validators)', () => {
  it('the mainchain runs a devnet genesis block with the first N dev validators as genesis validators; N is saved', async () => {
    const root = join(tmp('interop-validators'), 'net');
    const layout = networkLayout(root);
    const settings = await createNetwork(layout, 3, 4);
    assert.equal(settings.mainchainValidators, 4);
    assert.equal(readSettings(layout)?.mainchainValidators, 4);
    const config = loadConfig({ dataPath: layout.mainchain });
    assert.equal(config.genesis.chainID, MAINCHAIN_ID);
    assert.equal(config.genesis.block.fromFile, join(layout.mainchain, 'config', 'mainchain_genesis_block.blob'));
    const block = decodeBlock(readFileSync(config.genesis.block.fromFile));
    const posSchema = require('klayr-framework/dist-node/modules/pos/schemas').genesisStoreSchema;
    const pos = klayrCodec.codec.toJSON(
      posSchema,
      klayrCodec.codec.decode(posSchema, block.assets.find((a) => a.module === 'pos')!.data),
    );
    assert.deepEqual(
      pos.genesisData.initValidators,
      devnetKeys()
        .slice(0, 4)
        .map((k) => k.address),
    );
    assert.equal(pos.validators.length, 103);
    // the devnet's generator keys hold them all
    assert.equal(config.generator?.keys.fromFile, join(layout.mainchain, 'config', 'dev-validators.json'));
  });

  it('without it the mainchain runs the devnet genesis block and network.json names no count', async () => {
    const root = join(tmp('interop-plain'), 'net');
    const settings = await createNetwork(networkLayout(root), 3);
    assert.equal('mainchainValidators' in settings, false);
    assert.equal(
      loadConfig({ dataPath: networkLayout(root).mainchain }).genesis.block.fromFile,
      join(root, 'mainchain', 'config', 'genesis_block.blob'),
    );
  });

  it('refuses a count Klayr refuses, creating nothing', async () => {
    const root = join(tmp('interop-too-many'), 'net');
    await assert.rejects(createNetwork(networkLayout(root), 3, 52), /1 to 51 genesis validators/);
    assert.equal(existsSync(root), false);
  });
});

describe('network:interop — flags', () => {
  it('--help names the data path, both ports and the block time', async () => {
    const { code, stdout } = await runCLI('network:interop', '--help');
    assert.equal(code, 0);
    for (const flag of [
      '--data-path',
      '--mainchain-port',
      '--sidechain-port',
      '--block-time',
      '--mainchain-validators',
    ])
      assert.match(stdout, new RegExp(flag));
    assert.match(stdout, /7887/);
    assert.match(stdout, /7888/);
  });

  for (const [args, message] of [
    [['--mainchain-port', '80'], /--mainchain-port must be an integer port between 1024 and 65535/],
    [['--sidechain-port', 'x'], /--sidechain-port must be an integer port/],
    [['--block-time', '2'], /--block-time must be at least 3 seconds/],
    [['--mainchain-validators', '0'], /--mainchain-validators must be an integer from 1 to 51/],
    [['--mainchain-validators', '52'], /--mainchain-validators must be an integer from 1 to 51/],
    [['--unknown'], /unknown option/],
  ] as const) {
    it(`refuses ${args.join(' ')}`, async () => {
      const dir = tmp('interop-flags');
      const { code, stderr } = await runCLI('network:interop', '-d', join(dir, 'net'), ...args);
      assert.equal(code, 1);
      assert.match(stderr, message);
      assert.ok(!existsSync(join(dir, 'net')), 'nothing created');
    });
  }

  it('refuses equal ports, creating nothing', async () => {
    const dir = tmp('interop-same');
    const port = await freePort();
    const { code, stderr } = await runCLI(
      'network:interop',
      '-d',
      join(dir, 'net'),
      '--mainchain-port',
      String(port),
      '--sidechain-port',
      String(port),
    );
    assert.equal(code, 1);
    assert.match(stderr, /must differ/);
    assert.ok(!existsSync(join(dir, 'net')));
  });

  it('refuses a port in use, creating nothing', async () => {
    const dir = tmp('interop-busy-port');
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const busy = (server.address() as AddressInfo).port;
    try {
      const { code, stderr } = await runCLI(
        'network:interop',
        '-d',
        join(dir, 'net'),
        '--mainchain-port',
        String(await freePort()),
        '--sidechain-port',
        String(busy),
      );
      assert.equal(code, 1);
      assert.match(stderr, new RegExp(`Port ${busy} on 127.0.0.1 is already in use \\(--sidechain-port\\)`));
      assert.ok(!existsSync(join(dir, 'net')));
      await assert.rejects(assertPortFree(busy, '--mainchain-port'), /already in use \(--mainchain-port\)/);
    } finally {
      server.close();
    }
  });

  /** network:interop on an existing network (3-second blocks, the devnet's genesis) with `flag value`. */
  const rerunWith = async (
    dir: string,
    flag: string,
    value: string,
  ): Promise<{ code: number | null; stderr: string }> => {
    const root = join(tmp(dir), 'net');
    mkdirSync(join(root, 'mainchain'), { recursive: true });
    mkdirSync(join(root, 'sidechain'), { recursive: true });
    writeFileSync(join(root, 'network.json'), JSON.stringify({ blockTime: 3, relayerPassword: 'x' }));
    const mainchainPort = String(await freePort());
    const sidechainPort = String(await freePort());
    return runCLI(
      'network:interop',
      '-d',
      root,
      '--mainchain-port',
      mainchainPort,
      '--sidechain-port',
      sidechainPort,
      flag,
      value,
    );
  };

  it("refuses --block-time different from an existing network's", async () => {
    const { code, stderr } = await rerunWith('interop-blocktime', '--block-time', '5');
    assert.equal(code, 1);
    assert.match(stderr, /runs with 3-second blocks; --block-time 5 applies only when a network is created/);
  });

  it("refuses --mainchain-validators different from an existing network's", async () => {
    const { code, stderr } = await rerunWith('interop-mainchain-validators', '--mainchain-validators', '4');
    assert.equal(code, 1);
    assert.match(
      stderr,
      /mainchain at .* runs the devnet's genesis block; --mainchain-validators 4 applies only when a network is created/,
    );
  });
});

describe('network:interop — the sidechain genesis block against klayr-framework', () => {
  it("Klayr's sidechain modules process it to the same state entries, validators and threshold that Kestrel's header commits to", async () => {
    const root = join(tmp('interop-oracle'), 'net');
    const layout = networkLayout(root);
    await createNetwork(layout, 3);
    const saved = readSavedConfig(layout.sidechain);
    const config = loadConfig({ dataPath: layout.sidechain });
    const blob = readFileSync(config.genesis.block.fromFile!);
    const { runKlayrApplicationGenesis } = await import('../helpers/klayr_genesis.js');
    const klayr = await runKlayrApplicationGenesis(saved, blob, false);
    const { computeGenesis } = await import('../../src/engine/genesis.js');
    const { EMPTY_STATE } = await import('../../src/engine/state/state_db.js');
    const { applicationModules } = await import('../../src/main/modules.js');
    const block = decodeBlock(blob);
    const ours = computeGenesis(block, Buffer.from(SIDECHAIN_ID, 'hex'), applicationModules(config), EMPTY_STATE);
    const oursEntries = new Map(
      ours.state.overlay
        .changes()
        .filter((c) => c.value !== undefined)
        .map((c) => [c.key.toString('hex'), c.value!.toString('hex')]),
    );
    const theirs = new Map([...klayr.store.data].map(([k, v]) => [k, v.toString('hex')]));
    assert.deepEqual(oursEntries, theirs);
    assert.deepEqual(ours.stateRoot, block.header.stateRoot);
    assert.equal(ours.nextValidators.certificateThreshold, klayr.certificateThreshold);
    assert.deepEqual(
      ours.nextValidators.validators.map((v) => [v.address.toString('hex'), v.bftWeight, v.blsKey.toString('hex')]),
      klayr.nextValidators.map((v: any) => [v.address.toString('hex'), v.bftWeight, v.blsKey.toString('hex')]),
    );
    assert.equal(klayr.nextValidators.length, SIDECHAIN_VALIDATORS);
  });
});

describe('network:interop — PoS windows for short block times', () => {
  const klayrPoS = (blockTime: number, pos: Record<string, unknown>) => {
    const module = new (require('klayr-framework/dist-node/modules/pos').PoSModule)();
    return module.init({ genesisConfig: { chainID: SIDECHAIN_ID, blockTime }, moduleConfig: pos });
  };

  for (const blockTime of [3, 4, 7, 60]) {
    it(`at ${blockTime}-second blocks Klayr's PoS module accepts both chains' PoS config`, async () => {
      const root = join(tmp(`interop-pos-${blockTime}`), 'net');
      await createNetwork(networkLayout(root), blockTime);
      for (const chain of ['mainchain', 'sidechain'])
        await klayrPoS(blockTime, readSavedConfig(join(root, chain)).modules.pos!);
    });
  }

  it("at 3-second blocks Klayr's defaults are refused, so the windows are raised to 5 days of blocks", async () => {
    await assert.rejects(klayrPoS(3, {}), /must be >= 144000/);
    assert.deepEqual(posWindows(3), { failSafeInactiveWindow: 144000 });
    assert.deepEqual(posWindows(7), {});
    assert.deepEqual(posWindows(60), { punishmentWindowSelfStaking: 525600 });
  });
});

describe('network:interop — a stop asked for before the nodes start', () => {
  it('leaves the network created and starts no node', async () => {
    const { runInteropNetwork } = await import('../../src/main/interop_network/run_network.js');
    const root = join(tmp('interop-early-stop'), 'net');
    const lines: string[] = [];
    await runInteropNetwork({
      dataPath: root,
      mainchainPort: await freePort(),
      sidechainPort: await freePort(),
      blockTime: 3,
      connectorFlags: [],
      progress: (l) => lines.push(l),
      stopRequested: Promise.resolve('SIGINT'),
    });
    assert.match(lines.join('\n'), /SIGINT: the network is ready, its nodes not started/);
    assert.ok(existsSync(join(root, 'network.json')));
    for (const chain of ['mainchain', 'sidechain'])
      assert.ok(!existsSync(join(root, chain, 'kestrel.log')), `${chain} never started`);
  });
});
