// One generated sidechain interoperability scenario: the sidechain registers the mainchain (its
// validators' aggregate signature over the registration message), receives the mainchain's first
// CCU (registration CCM, KLY transfers), sends KLY back with transferCrossChain, refuses or fails
// tampered updates, and processes sidechainTerminated / channelTerminated CCMs and a state recovery.

import { createRequire } from 'node:module';
import { codec } from '../../src/lib/codec/index.js';
import { createAggSig } from '../../src/lib/crypto/aggregate.js';
import { blsSignData } from '../../src/lib/crypto/bls.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { MESSAGE_TAG_CHAIN_REG } from '../../src/lib/crypto/tags.js';
import type { CCUParams } from '../../src/lib/interop/schemas.js';
import { devValidators } from './devnet.js';
import type { Network, StepOutcome } from './interop_oracle.js';
import { InteropChains } from './interop_oracle.js';
import type { CCUOptions } from './interop_oracle_partner.js';
import {
  CCM_STATUS_OK,
  encodeCCM,
  KLY,
  klayrInteropSchemas,
  klayrStores,
  klayrTokenSchemas,
  MAINCHAIN_ID,
  PartnerChain,
  sortedByKey,
} from './interop_oracle_partner.js';
import type { ScenarioReport } from './interop_oracle_scenario.js';
import { runKlayrSidechainGenesis, sidechainGenesisBlock } from './interop_oracle_sidechain_genesis.js';
import type { SignedTx } from './interop_oracle_tx.js';
import {
  devAccount,
  initializeStateRecoveryTx,
  recoverStateTx,
  registerMainchainTx,
  sidechainCCUTx,
  transferCrossChainTx,
  USER_INITIALIZATION_FEE,
  unsend,
} from './interop_oracle_tx.js';
import { klayrCodec } from './klayr.js';
import { Rng } from './random.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);
/* eslint-enable @typescript-eslint/no-explicit-any */
const stores = klayrStores;
const { userStoreSchema } = fw('modules/token/stores/user');
const { chainDataSchema } = fw('modules/interoperability/stores/chain_account');
const { ccmProcessedEventSchema } = fw('modules/interoperability/events/ccm_processed');

export const SIDECHAIN_ID = Buffer.from('04000001', 'hex');
const SIDECHAIN_NAME = 'kestrel_sidechain';
export const DEVNET_SIDECHAIN: Network = {
  name: 'devnet sidechain',
  chainID: SIDECHAIN_ID,
  genesisBlock: sidechainGenesisBlock,
  klayrGenesis: () => runKlayrSidechainGenesis(SIDECHAIN_ID),
};

const blsPrivateKeys = new Map(devValidators().map((v) => [v.plain.blsKey, Buffer.from(v.plain.blsPrivateKey, 'hex')]));

export const runSidechainScenario = async (seed: number, stopAtDifference = true): Promise<ScenarioReport> => {
  const rng = new Rng(seed);
  const report: ScenarioReport = { seed, differences: [], steps: [], features: new Set(), ccuParams: [] };
  let chains: InteropChains;
  try {
    chains = await InteropChains.start(rng, DEVNET_SIDECHAIN);
  } catch (error) {
    report.differences.push({
      step: 'sidechain genesis',
      height: 0,
      what: 'decision',
      detail: `Klayr executes the sidechain genesis, Kestrel throws: ${(error as Error).message}`,
    });
    return report;
  }
  const interop = chains.modules.interoperability;
  const keys = {
    outboxRoot: interop.stores.get(stores.outboxRoot).key,
    channel: interop.stores.get(stores.channel).key,
    tokenUser: chains.modules.token.stores.get(stores.user).key,
  };
  const mainchain = new PartnerChain(
    MAINCHAIN_ID,
    'klayr_mainchain',
    rng,
    keys,
    1 + rng.int(rng.next() < 0.2 ? 12 : 6),
    rng.int(24),
    SIDECHAIN_ID,
  );
  mainchain.nonce = BigInt(rng.int(50));
  const funder = devAccount(0, SIDECHAIN_ID);
  const relayer = devAccount(1, SIDECHAIN_ID);
  const user = devAccount(2, SIDECHAIN_ID);

  let stopped = false;
  const step = async (name: string, txs: SignedTx[]): Promise<StepOutcome | undefined> => {
    if (stopped) return undefined;
    const outcome = await chains.step(
      name,
      txs.map((t) => t.tx),
    );
    report.steps.push(
      `${name}: ${outcome.accepted ? `accepted [${outcome.results.join()}]` : `refused (${outcome.klayrError})`}${outcome.kestrelError !== undefined && outcome.accepted ? ` Kestrel refused (${outcome.kestrelError})` : ''}`,
    );
    for (const e of outcome.events) {
      report.features.add(`sidechain event ${e.module}:${e.name}`);
      if (e.name === 'ccmProcessed') {
        const { result, code, ccm } = klayrCodec.codec.decode(ccmProcessedEventSchema, e.data);
        report.features.add(
          `sidechain ccmProcessed ${ccm.module}:${ccm.crossChainCommand} result=${result},code=${code}`,
        );
      }
    }
    if (!outcome.accepted) {
      txs.forEach(unsend);
      report.features.add(`sidechain refused: ${outcome.klayrError}`);
    } else for (const r of outcome.results) report.features.add(`sidechain ${name} result ${r}`);
    if (outcome.differences.length > 0) {
      report.differences.push(...outcome.differences);
      stopped = stopAtDifference;
    }
    return outcome;
  };
  const submitCCU = async (name: string, options: Omit<CCUOptions, 'blockTimestamp'>): Promise<void> => {
    const built = mainchain.buildCCU({ ...options, blockTimestamp: chains.nextTimestamp }, []);
    report.ccuParams.push(built.bytes);
    const outcome = await step(name, [
      sidechainCCUTx(relayer, built.params as CCUParams, BigInt(rng.int(3)) * 100000n),
    ]);
    if (outcome?.accepted === true && outcome.results[0] === 1) built.commit();
  };

  // registerMainchain: the sidechain's active validators sign the registration message
  const params = await chains.klayrStore<{
    validators: { blsKey: Buffer; bftWeight: bigint }[];
    certificateThreshold: bigint;
  }>('validators', stores.validatorsParams, Buffer.alloc(0));
  const active = sortedByKey(params!.validators.filter((v) => v.bftWeight > 0n));
  const registration = {
    ownChainID: SIDECHAIN_ID,
    ownName: SIDECHAIN_NAME,
    mainchainValidators: mainchain.validators.map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight })),
    mainchainCertificateThreshold: mainchain.threshold,
  };
  const signRegistration = (message: Record<string, unknown>, tamper: boolean) => {
    const bytes = codec.encode(klayrInteropSchemas.registrationSignatureMessageSchema, message);
    const signers: typeof active = [];
    let weight = 0n;
    for (const v of [...active].sort(() => rng.next() - 0.5)) {
      if (weight >= params!.certificateThreshold) break;
      signers.push(v);
      weight += v.bftWeight;
    }
    if (tamper) signers.pop();
    const pairs = signers.map((v) => ({
      publicKey: v.blsKey,
      signature: blsSignData(MESSAGE_TAG_CHAIN_REG, SIDECHAIN_ID, bytes, blsPrivateKeys.get(v.blsKey.toString('hex'))!),
    }));
    return createAggSig(
      active.map((v) => v.blsKey),
      pairs,
    );
  };
  if (rng.next() < 0.3)
    await step('registerMainchain below the signature threshold', [
      registerMainchainTx(funder, { ...registration, ...signRegistration(registration, true) }),
    ]);
  if (rng.next() < 0.2)
    await step('registerMainchain with a threshold too small (refused)', [
      registerMainchainTx(funder, {
        ...registration,
        mainchainCertificateThreshold: 0n,
        ...signRegistration({ ...registration, mainchainCertificateThreshold: 0n }, false),
      }),
    ]);
  await step('registerMainchain', [
    registerMainchainTx(funder, { ...registration, ...signRegistration(registration, false) }),
  ]);
  if (rng.next() < 0.2)
    await step('registerMainchain again (refused)', [
      registerMainchainTx(funder, { ...registration, ...signRegistration(registration, false) }),
    ]);

  // the mainchain's first CCU: the registration CCM, then KLY for sidechain accounts
  mainchain.sendRegistration(SIDECHAIN_NAME);
  for (let i = rng.int(4); i > 0; i--)
    mainchain.sendTransfer(
      KLY,
      BigInt(1 + rng.int(10 ** 6)),
      rng.bytes(20),
      rng.pick([user.address, rng.bytes(20)]),
      BigInt(rng.int(2)) * BigInt(rng.int(10000)),
    );
  if (rng.next() < 0.3) await submitCCU('first CCU with a bad signature', { tamper: 'signature' });
  await submitCCU('first CCU from the mainchain', {});
  const account = await chains.klayrStore<{ status: number }>('interoperability', stores.chainAccount, MAINCHAIN_ID);
  if (account?.status !== 1) return report;

  // KLY back to the mainchain; then more transfers in, tampered updates, a validators update
  for (let i = 1 + rng.int(2); i > 0; i--)
    await step('transferCrossChain to the mainchain', [
      transferCrossChainTx(
        user,
        MAINCHAIN_ID,
        rng.bytes(20),
        BigInt(1 + rng.int(10 ** 6)),
        BigInt(rng.int(3)) * 10000n,
      ),
    ]);
  if (rng.next() < 0.3)
    await step('transferCrossChain to another sidechain', [
      transferCrossChainTx(user, Buffer.from('04000002', 'hex'), rng.bytes(20), 1000n, 0n),
    ]);
  for (let i = 1 + rng.int(3); i > 0; i--)
    mainchain.sendTransfer(KLY, BigInt(rng.int(10 ** 6)), rng.bytes(20), rng.bytes(20), 0n);
  if (rng.next() < 0.3)
    mainchain.sendTransfer(Buffer.concat([SIDECHAIN_ID, Buffer.alloc(4)]), 10n, rng.bytes(20), rng.bytes(20), 0n); // a token of the sidechain, never escrowed
  for (const tamper of [
    'signature',
    'witness',
    'bitmap',
    'oldCertificate',
    'belowThreshold',
    'futureCertificate',
    'validatorsHash',
    'messageWitness',
    'thresholdOnly',
  ] as const) {
    if (rng.next() < 0.3)
      await submitCCU(`CCU tampered: ${tamper}`, {
        tamper,
        ...(tamper === 'bitmap' || tamper === 'validatorsHash'
          ? { validatorsUpdate: { add: 1, reweigh: 1, remove: 0 } }
          : {}),
      });
  }
  // CCMs the sidechain must not accept from the mainchain: addressed elsewhere, channel unavailable status, undecodable
  if (rng.next() < 0.3) {
    const kind = rng.pick(['elsewhere', 'undecodable', 'returned', 'forwarded', 'thirdToken'] as const);
    const third = Buffer.from('04000007', 'hex');
    const thirdTransfer = (tokenID: Buffer) =>
      codec.encode(klayrTokenSchemas.crossChainTransferMessageParams, {
        tokenID,
        amount: 3n,
        senderAddress: rng.bytes(20),
        recipientAddress: rng.bytes(20),
        data: '',
      });
    const base = {
      module: 'token',
      crossChainCommand: 'transferCrossChain',
      nonce: mainchain.nonce++,
      sendingChainID: MAINCHAIN_ID,
      receivingChainID: SIDECHAIN_ID,
      fee: 0n,
      status: CCM_STATUS_OK,
      params: codec.encode(klayrTokenSchemas.crossChainTransferMessageParams, {
        tokenID: KLY,
        amount: 1n,
        senderAddress: rng.bytes(20),
        recipientAddress: rng.bytes(20),
        data: '',
      }),
    };
    mainchain.sendRaw(
      {
        elsewhere: () => encodeCCM({ ...base, receivingChainID: Buffer.from('04000003', 'hex') }),
        undecodable: () => rng.bytes(7),
        returned: () => encodeCCM({ ...base, status: 4 }),
        // from another sidechain through the mainchain, in that sidechain's token: bounced back through the mainchain
        forwarded: () =>
          encodeCCM({
            ...base,
            sendingChainID: third,
            fee: rng.pick([0n, 500000n]),
            params: thirdTransfer(Buffer.concat([third, Buffer.alloc(4)])),
          }),
        // a token of neither chain: the CCM fails verification and the sidechain terminates the mainchain's channel
        thirdToken: () => encodeCCM({ ...base, params: thirdTransfer(Buffer.concat([third, Buffer.alloc(4)])) }),
      }[kind](),
    );
    report.features.add(`sidechain malformed CCM: ${kind}`);
    const before = mainchain.delivered;
    await submitCCU(`CCU with a CCM: ${kind}`, {});
    if (mainchain.delivered === before) mainchain.dropUndelivered();
  }
  await submitCCU('CCU with transfers', {
    ...(rng.next() < 0.4 ? { validatorsUpdate: { add: rng.int(3), reweigh: rng.int(3), remove: rng.int(2) } } : {}),
  });

  // the mainchain reports another sidechain terminated (klayr-framework 0.12.3's sidechain module registers no sidechainTerminated command)
  if (rng.next() < 0.4) {
    mainchain.send({
      module: 'interoperability',
      crossChainCommand: 'sidechainTerminated',
      receivingChainID: SIDECHAIN_ID,
      fee: 0n,
      status: CCM_STATUS_OK,
      params: codec.encode(klayrInteropSchemas.sidechainTerminatedCCMParamsSchema, {
        chainID: Buffer.from('04000002', 'hex'),
        stateRoot: rng.bytes(32),
      }),
    });
    await submitCCU('CCU with sidechainTerminated', {});
  }
  // another sidechain terminated on the mainchain: its account, proven in the mainchain's certified state, initializes its state recovery here
  if (rng.next() < 0.6) {
    const other = new PartnerChain(
      Buffer.concat([MAINCHAIN_ID.subarray(0, 1), rng.bytes(3)]),
      'other',
      rng,
      keys,
      1,
      rng.int(24),
      SIDECHAIN_ID,
    );
    if (!other.chainID.equals(MAINCHAIN_ID) && !other.chainID.equals(SIDECHAIN_ID)) {
      other.users.push({
        address: rng.bytes(20),
        tokenID: Buffer.concat([SIDECHAIN_ID, Buffer.alloc(4)]),
        availableBalance: BigInt(rng.int(100)),
      });
      other.buildCCU({ blockTimestamp: chains.nextTimestamp }, []).commit();
      const otherTree = other.certified!;
      const status = rng.pick([2, 2, 2, 1, 0]);
      const lastCertificate = {
        height: other.height,
        timestamp: status === 1 ? rng.pick([0, chains.nextTimestamp]) : otherTree.timestamp,
        stateRoot: otherTree.root,
        validatorsHash: rng.bytes(32),
      };
      const sidechainAccount = codec.encode(chainDataSchema, { name: 'other', lastCertificate, status });
      const accountKey = Buffer.concat([interop.stores.get(stores.chainAccount).key, other.chainID]);
      mainchain.extraEntries.set('other', { key: accountKey, value: sidechainAccount });
      mainchain.sendTransfer(KLY, 1n, rng.bytes(20), rng.bytes(20), 0n);
      await submitCCU("CCU certifying another chain's account", {});
      const certified = mainchain.certified!;
      const proof = mainchain.prove(certified, [accountKey]);
      const tampered = rng.next() < 0.15;
      report.features.add(`initializeStateRecovery status=${status}`);
      await step(`initializeStateRecovery (account status ${status}${tampered ? ', tampered proof' : ''})`, [
        initializeStateRecoveryTx(relayer, {
          chainID: other.chainID,
          sidechainAccount,
          bitmap: proof.queries[0]!.bitmap,
          siblingHashes: tampered ? proof.siblingHashes.map((h) => sha256(h)) : proof.siblingHashes,
        }),
      ]);
      const terminated = await chains.klayrStore('interoperability', stores.terminatedState, other.chainID);
      if (terminated !== undefined) {
        report.features.add('sidechain: state recovery initialized');
        const u = otherTree.users[0]!;
        const storeKey = Buffer.concat([u.address, u.tokenID]);
        const userProof = other.prove(otherTree, [Buffer.concat([keys.tokenUser, storeKey])]);
        await step('recoverState of the other chain', [
          recoverStateTx(
            relayer,
            {
              chainID: other.chainID,
              module: 'token',
              storeEntries: [
                {
                  substorePrefix: keys.tokenUser.subarray(4),
                  storeKey,
                  storeValue: codec.encode(userStoreSchema, {
                    availableBalance: u.availableBalance,
                    lockedBalances: [],
                  }),
                  bitmap: userProof.queries[0]!.bitmap,
                },
              ],
              siblingHashes: userProof.siblingHashes,
            },
            USER_INITIALIZATION_FEE,
          ),
        ]);
      }
      mainchain.extraEntries.delete('other');
    }
  }

  // the mainchain closes the channel: its last certified state (with token accounts) can be recovered
  if (rng.next() < 0.6) {
    mainchain.users.push(
      {
        address: rng.bytes(20),
        tokenID: Buffer.concat([SIDECHAIN_ID, Buffer.alloc(4)]),
        availableBalance: BigInt(rng.int(100)),
      },
      { address: rng.bytes(20), tokenID: KLY, availableBalance: 7n },
    );
    mainchain.sendTransfer(KLY, 1n, rng.bytes(20), rng.bytes(20), 0n);
    await submitCCU("CCU certifying the mainchain's accounts", {});
    mainchain.send({
      module: 'interoperability',
      crossChainCommand: 'channelTerminated',
      receivingChainID: SIDECHAIN_ID,
      fee: 0n,
      status: CCM_STATUS_OK,
      params: Buffer.alloc(0),
    });
    await submitCCU('CCU with channelTerminated', {});
    const terminated = await chains.klayrStore<{ stateRoot: Buffer }>(
      'interoperability',
      stores.terminatedState,
      MAINCHAIN_ID,
    );
    const tree = terminated === undefined ? undefined : mainchain.trees.get(terminated.stateRoot.toString('hex'));
    if (tree !== undefined) {
      report.features.add('sidechain: mainchain terminated');
      const recovered = tree.users.filter(() => rng.next() < 0.7);
      const users = recovered.length > 0 ? recovered : tree.users.slice(0, 1);
      const storeKeys = users.map((u) => Buffer.concat([u.address, u.tokenID]));
      const proof = mainchain.prove(
        tree,
        storeKeys.map((k) => Buffer.concat([keys.tokenUser, k])),
      );
      const storeEntries = users.map((u, i) => ({
        substorePrefix: keys.tokenUser.subarray(4),
        storeKey: storeKeys[i]!,
        storeValue: codec.encode(userStoreSchema, { availableBalance: u.availableBalance, lockedBalances: [] }),
        bitmap: proof.queries[i]!.bitmap,
      }));
      await step('recoverState of the terminated mainchain', [
        recoverStateTx(
          relayer,
          { chainID: MAINCHAIN_ID, module: 'token', storeEntries, siblingHashes: proof.siblingHashes },
          USER_INITIALIZATION_FEE * BigInt(users.length),
        ),
      ]);
    }
    if (rng.next() < 0.5)
      await step('transferCrossChain to the terminated mainchain', [
        transferCrossChainTx(user, MAINCHAIN_ID, rng.bytes(20), 1000n, 0n),
      ]);
  }
  return report;
};
