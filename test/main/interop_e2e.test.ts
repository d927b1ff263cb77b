/**
 * End to end on `kestrel network:interop`: registration on both chains, token transfers both ways
 * relayed by the chainConnector plugins in CCUs, escrow, sent CCUs, certificates advancing, the
 * channel roots of both sides agreeing, and a tampered CCU refused. Signed like a wallet signs:
 * @klayr/transactions over klayr-framework's params schemas. The mainchain runs a devnet genesis
 * block with 4 genesis validators (`--mainchain-validators 4`), which finalizes within a few blocks
 * as the sidechain does: a mainchain certificate, and so a CCU to the sidechain, comes seconds after
 * a block (the devnet's own genesis block needs about 70 blocks). Part of `npm test`.
 */
import '../helpers/klayr.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KeyEntry } from '../../src/main/commands/keys/derive.js';
import { MAINCHAIN_ID, SIDECHAIN_ID } from '../../src/main/interop_network/constants.js';
import { sidechainKeys } from '../../src/main/interop_network/create_network.js';
import { devnetKeys } from '../../src/main/network/devnet_genesis.js';
import type { InteropNetworkProcess } from '../helpers/interop_network.js';
import { startInteropNetwork } from '../helpers/interop_network.js';
import { klayrCodec, klayrCrypto, klayrTransactions } from '../helpers/klayr.js';
import { waitUntil } from '../helpers/node_process.js';
import { freePort } from '../helpers/ports.js';
import { answerError } from '../helpers/rpc.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const tokenSchemas: any = require('klayr-framework/dist-node/modules/token/schemas');
const interopSchemas: any = require('klayr-framework/dist-node/modules/interoperability/schemas');
const certificateSchema: any =
  require('klayr-framework/dist-node/engine/consensus/certificate_generation/schema').certificateSchema;

const KLY = '0400000000000000';
const RELAY_TIMEOUT_MS = 120_000;
/** The message fee each transfer pays (in KLY on both channels). */
const MESSAGE_FEE = 10_000_000n;

/** A JSON-RPC call over HTTP that throws the node's error. */
const rpc = async (port: number, method: string, params: Record<string, unknown> = {}): Promise<any> => {
  const res = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
  const error = answerError(body);
  if (error !== undefined) throw new Error(`${method}: ${error.message}`);
  return body.result;
};

const balance = async (port: number, address: string, tokenID: string): Promise<bigint> =>
  rpc(port, 'token_getBalance', { address, tokenID }).then(
    (b: { availableBalance: string }) => BigInt(b.availableBalance),
    () => 0n,
  );

const escrowed = async (port: number, chainID: string, tokenID: string): Promise<bigint> => {
  const { escrowedAmounts } = await rpc(port, 'token_getEscrowedAmounts');
  return BigInt(escrowedAmounts.find((e: any) => e.escrowChainID === chainID && e.tokenID === tokenID)?.amount ?? '0');
};

/** Signs and posts a transaction as a wallet does; returns its ID. */
const post = async (
  port: number,
  chainID: string,
  key: KeyEntry,
  module: string,
  command: string,
  schema: any,
  params: any,
  fee: bigint,
): Promise<string> => {
  const { nonce } = await rpc(port, 'auth_getAuthAccount', { address: key.address });
  const tx = {
    module,
    command,
    nonce: BigInt(nonce),
    fee,
    senderPublicKey: Buffer.from(key.publicKey, 'hex'),
    params,
    signatures: [],
  };
  const signed = klayrTransactions.signTransaction(
    tx,
    Buffer.from(chainID, 'hex'),
    Buffer.from(key.privateKey, 'hex'),
    schema,
  );
  const { transactionId } = await rpc(port, 'txpool_postTransaction', {
    transaction: klayrTransactions.getBytes(signed, schema).toString('hex'),
  });
  return transactionId;
};

const transferCrossChain = (
  port: number,
  chainID: string,
  key: KeyEntry,
  receivingChainID: string,
  recipient: KeyEntry,
  amount: bigint,
): Promise<string> =>
  post(
    port,
    chainID,
    key,
    'token',
    'transferCrossChain',
    tokenSchemas.crossChainTransferParamsSchema,
    {
      tokenID: Buffer.from(KLY, 'hex'),
      amount,
      receivingChainID: Buffer.from(receivingChainID, 'hex'),
      recipientAddress: klayrCrypto.address.getAddressFromKlayr32Address(recipient.address),
      data: 'e2e',
      messageFee: MESSAGE_FEE,
      messageFeeTokenID: Buffer.from(KLY, 'hex'),
    },
    1_000_000n,
  );

describe('interop end to end on network:interop', { timeout: 480_000 }, () => {
  let root: string | undefined;
  let network: InteropNetworkProcess | undefined;
  let main: number;
  let side: number;
  let devnet: KeyEntry[];
  let sideKeys: KeyEntry[];
  const toSidechain = 10_00000000n;
  const back = 1_00000000n;

  before(async () => {
    main = await freePort();
    side = await freePort();
    root = join(mkdtempSync(join(tmpdir(), 'kestrel-interop-e2e-')), 'net');
    network = startInteropNetwork(root, main, side, '--block-time', '3', '--mainchain-validators', '4');
    await network.waitForLine(/The network is running/, 180_000);
    devnet = devnetKeys();
    sideKeys = sidechainKeys(join(root, 'sidechain'));
  });
  after(async () => {
    await network?.stop();
    if (root !== undefined) rmSync(dirname(root), { recursive: true, force: true });
  });

  it('registers each chain on the other', async () => {
    assert.equal(
      (await rpc(main, 'interoperability_getChainAccount', { chainID: SIDECHAIN_ID })).name,
      'kestrel_sidechain',
    );
    assert.equal(
      (await rpc(side, 'interoperability_getChainAccount', { chainID: MAINCHAIN_ID })).name,
      'klayr_mainchain',
    );
    assert.equal((await rpc(side, 'interoperability_getOwnChainAccount')).name, 'kestrel_sidechain');
  });

  it('the sidechain becomes active on the mainchain with its first CCU (Klayr sends no CCM to a chain before)', async () => {
    await network!.waitForLine(/Sidechain 04000001 on the mainchain is active/, 120_000);
    assert.equal((await rpc(main, 'interoperability_getChainAccount', { chainID: SIDECHAIN_ID })).status, 1);
    assert.ok((await rpc(side, 'chainConnector_getSentCCUs')).total >= 1);
  });

  it('a mainchain → sidechain transfer escrows its amount and message fee on the mainchain and arrives on the sidechain', async () => {
    const recipient = sideKeys[0]!;
    const escrowBefore = await escrowed(main, SIDECHAIN_ID, KLY);
    await transferCrossChain(main, MAINCHAIN_ID, devnet[0]!, SIDECHAIN_ID, recipient, toSidechain);
    // the message fee, in the mainchain's native token, is escrowed for the sidechain with the amount
    await waitUntil(
      'the transfer is escrowed',
      async () => (await escrowed(main, SIDECHAIN_ID, KLY)) === escrowBefore + toSidechain + MESSAGE_FEE,
      60_000,
    );
    await waitUntil(
      'the KLY arrive on the sidechain',
      async () => (await balance(side, recipient.address, KLY)) === toSidechain,
      RELAY_TIMEOUT_MS,
    );
  });

  it('the mainchain connector lists the CCUs it sent, and the sidechain took their certificates', async () => {
    const sent = await rpc(main, 'chainConnector_getSentCCUs');
    assert.ok(sent.total >= 1);
    assert.equal(sent.list[0].module, 'interoperability');
    // the sidechain's CCU command (klayr-framework names it after the chain it runs on)
    assert.equal(sent.list[0].command, 'submitSidechainCrossChainUpdate');
    const account = await rpc(side, 'interoperability_getChainAccount', { chainID: MAINCHAIN_ID });
    assert.ok(account.lastCertificate.height > 0);
    assert.equal(account.status, 1);
    await network!.waitForLine(/Mainchain 04000000 on the sidechain is active/, 60_000);
  });

  it('a sidechain → mainchain transfer arrives and releases the escrow', async () => {
    const recipient = devnet[2]!;
    const before = await balance(main, recipient.address, KLY);
    const escrowBefore = await escrowed(main, SIDECHAIN_ID, KLY);
    await transferCrossChain(side, SIDECHAIN_ID, sideKeys[0]!, MAINCHAIN_ID, recipient, back);
    await waitUntil(
      'the KLY arrive on the mainchain',
      async () => (await balance(main, recipient.address, KLY)) === before + back,
      RELAY_TIMEOUT_MS,
    );
    // the amount and the message fee (paid to the relayer on the mainchain) leave the escrow
    assert.equal(await escrowed(main, SIDECHAIN_ID, KLY), escrowBefore - back - MESSAGE_FEE);
    assert.ok((await rpc(side, 'chainConnector_getSentCCUs')).total >= 1);
  });

  it('the mainchain certificate on the sidechain keeps advancing', async () => {
    const first = (await rpc(side, 'interoperability_getChainAccount', { chainID: MAINCHAIN_ID })).lastCertificate
      .height;
    const firstOnMain = (await rpc(main, 'interoperability_getChainAccount', { chainID: SIDECHAIN_ID })).lastCertificate
      .height;
    assert.ok(firstOnMain > 0);
    // a new CCU needs a CCM to carry or a new certificate; another transfer makes one
    await transferCrossChain(main, MAINCHAIN_ID, devnet[0]!, SIDECHAIN_ID, sideKeys[1]!, 1n);
    await waitUntil(
      'a later mainchain certificate',
      async () =>
        (await rpc(side, 'interoperability_getChainAccount', { chainID: MAINCHAIN_ID })).lastCertificate.height > first,
      RELAY_TIMEOUT_MS,
    );
  });

  it("each chain's inbox of the other equals the other's outbox once relayed", async () => {
    const agree = async (from: number, to: number, fromID: string, toID: string): Promise<boolean> => {
      const outbox = (await rpc(from, 'interoperability_getChannel', { chainID: toID })).outbox;
      const inbox = (await rpc(to, 'interoperability_getChannel', { chainID: fromID })).inbox;
      return outbox.size === inbox.size && outbox.root === inbox.root;
    };
    await waitUntil(
      'mainchain outbox = sidechain inbox',
      () => agree(main, side, MAINCHAIN_ID, SIDECHAIN_ID),
      RELAY_TIMEOUT_MS,
    );
    await waitUntil(
      'sidechain outbox = mainchain inbox',
      () => agree(side, main, SIDECHAIN_ID, MAINCHAIN_ID),
      RELAY_TIMEOUT_MS,
    );
  });

  it('a CCU with a tampered certificate is refused and changes nothing', async () => {
    const sent = (await rpc(main, 'chainConnector_getSentCCUs')).list;
    const last = sent[sent.length - 1];
    const { params: paramsHex } = await rpc(side, 'chain_getTransactionByID', { id: last.id });
    const params = klayrCodec.codec.decode(
      interopSchemas.crossChainUpdateTransactionParams,
      Buffer.from(paramsHex, 'hex'),
    );
    const account = await rpc(side, 'interoperability_getChainAccount', { chainID: MAINCHAIN_ID });
    const certificate = klayrCodec.codec.decode(certificateSchema, params.certificate);
    // a newer height than any taken, the old signature: only the signature check can refuse it
    const tampered = { ...certificate, height: account.lastCertificate.height + 1 };
    const tamperedParams = { ...params, certificate: klayrCodec.codec.encode(certificateSchema, tampered) };
    let refusedAtPost = false;
    let id: string | undefined;
    try {
      id = await post(
        side,
        SIDECHAIN_ID,
        sideKeys[2]!,
        'interoperability',
        'submitSidechainCrossChainUpdate',
        interopSchemas.crossChainUpdateTransactionParams,
        tamperedParams,
        100_000_000n,
      );
    } catch {
      refusedAtPost = true;
    }
    if (!refusedAtPost) {
      // verify() cannot check the certificate signature before execution: the block's execution refuses it
      await waitUntil(
        'the tampered CCU is in a block',
        async () =>
          rpc(side, 'chain_getTransactionByID', { id: id! }).then(
            () => true,
            () => false,
          ),
        60_000,
      );
    }
    const now = await rpc(side, 'interoperability_getChainAccount', { chainID: MAINCHAIN_ID });
    assert.notDeepEqual(
      { height: now.lastCertificate.height, stateRoot: now.lastCertificate.stateRoot },
      { height: tampered.height, stateRoot: certificate.stateRoot.toString('hex') },
    );
  });
});
