// One generated mainchain interoperability scenario: two sidechains registered, activated by their
// first cross-chain updates, token transfers both ways, refused and failing updates (certificate
// signature, validators update bitmap, outbox root witness, certificate height, threshold),
// validators updates, inbox-only updates, CCMs forwarded and bounced, liveness termination, message
// recovery and state recovery. Kestrel and Klayr execute every block; the scenario follows Klayr.
import { createRequire } from 'node:module';
import type { CCMessage } from '../../src/engine/state_machine/cross_chain.js';
import { codec } from '../../src/lib/codec/index.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import type { CCUParams } from '../../src/lib/interop/schemas.js';
import { ccmSchema, crossChainUpdateParamsSchema } from '../../src/lib/interop/schemas.js';
import { leafHash, MerkleTree } from '../../src/lib/tree/index.js';
import type { Difference, StepOutcome } from './interop_oracle.js';
import { InteropChains } from './interop_oracle.js';
import type { CCUOptions, CertifiedTree } from './interop_oracle_partner.js';
import {
  CCM_STATUS_OK,
  encodeCCM,
  KLY,
  klayrInteropSchemas,
  klayrStores,
  klayrTokenSchemas,
  MAINCHAIN_ID,
  outboxRootOf,
  PartnerChain,
} from './interop_oracle_partner.js';
import type { SignedTx } from './interop_oracle_tx.js';
import {
  CHAIN_REGISTRATION_FEE,
  ccuTx,
  devAccount,
  ESCROW_INITIALIZATION_FEE,
  initializeMessageRecoveryTx,
  recoverMessageTx,
  recoverStateTx,
  registerSidechainTx,
  terminateForLivenessTx,
  transferCrossChainTx,
  USER_INITIALIZATION_FEE,
  unsend,
} from './interop_oracle_tx.js';
import { klayrCodec, klayrInteropConstants } from './klayr.js';
import { Rng } from './random.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);
const stores = klayrStores;
const { ccmSendSuccessDataSchema } = fw('modules/interoperability/events/ccm_send_success');
const { ccmProcessedEventSchema } = fw('modules/interoperability/events/ccm_processed');
const { userStoreSchema } = fw('modules/token/stores/user');
/* eslint-enable @typescript-eslint/no-explicit-any */

const LIVENESS_LIMIT: number = klayrInteropConstants.LIVENESS_LIMIT;
const STATUS = { REGISTERED: 0, ACTIVE: 1, TERMINATED: 2 } as const;
const CCM_PROCESSED_FORWARDED = 1;

export interface ScenarioReport {
  seed: number;
  differences: Difference[];
  /** Each step: name, Klayr's decision and results, Kestrel's refusal if any. */
  steps: string[];
  features: Set<string>;
  /** Every CCU's params bytes, for the schema cross-check. */
  ccuParams: Buffer[];
}

const chainIDFor = (rng: Rng, taken: Buffer[]): Buffer => {
  for (;;) {
    const id = Buffer.concat([MAINCHAIN_ID.subarray(0, 1), rng.bytes(3)]);
    if (!id.equals(MAINCHAIN_ID) && !taken.some((t) => t.equals(id))) return id;
  }
};

/** Runs one scenario; stops at the first step where the two sides differ unless told to go on (following Klayr). */
export const runMainchainScenario = async (seed: number, stopAtDifference = true): Promise<ScenarioReport> => {
  const rng = new Rng(seed);
  const chains = await InteropChains.start(rng);
  const interop = chains.modules.interoperability;
  const keys = {
    outboxRoot: interop.stores.get(stores.outboxRoot).key,
    channel: interop.stores.get(stores.channel).key,
    tokenUser: chains.modules.token.stores.get(stores.user).key,
  };
  const report: ScenarioReport = { seed, differences: [], steps: [], features: new Set(), ccuParams: [] };
  const taken: Buffer[] = [];
  const newSidechain = (label: string): PartnerChain => {
    const id = chainIDFor(rng, taken);
    taken.push(id);
    return new PartnerChain(id, `${label}_${seed}`, rng, keys, 1 + rng.int(rng.next() < 0.2 ? 12 : 5), rng.int(24));
  };
  const a = newSidechain('sidechain_a');
  const b = newSidechain('sidechain_b');
  const funder = devAccount(0);
  const relayer = devAccount(1);
  const user = devAccount(2);
  /** The mainchain's outbox to each sidechain (CCMs in the order they were appended), read from Klayr's events. */
  const mainchainOutbox = new Map<string, Buffer[]>();
  const outboxTo = (chain: PartnerChain): Buffer[] => mainchainOutbox.get(chain.chainID.toString('hex')) ?? [];

  const recordOutbox = (outcome: StepOutcome): void => {
    for (const e of outcome.events) {
      if (e.module !== 'interoperability') continue;
      let ccm: CCMessage | undefined;
      if (e.name === 'ccmSendSuccess') ccm = klayrCodec.codec.decode(ccmSendSuccessDataSchema, e.data).ccm;
      if (e.name === 'ccmProcessed') {
        const processed = klayrCodec.codec.decode(ccmProcessedEventSchema, e.data);
        if (processed.result === CCM_PROCESSED_FORWARDED) ccm = processed.ccm;
        report.features.add(`ccmProcessed:result=${processed.result},code=${processed.code}`);
      }
      if (ccm === undefined) continue;
      const partner = ccm.receivingChainID.toString('hex');
      mainchainOutbox.set(partner, [...(mainchainOutbox.get(partner) ?? []), codec.encode(ccmSchema, ccm)]);
    }
  };

  let stopped = false;
  const step = async (name: string, txs: SignedTx[], timestamp?: number): Promise<StepOutcome | undefined> => {
    if (stopped) return undefined;
    const outcome = await chains.step(
      name,
      txs.map((t) => t.tx),
      timestamp,
    );
    report.steps.push(
      `${name}: ${outcome.accepted ? `accepted [${outcome.results.join()}]` : `refused (${outcome.klayrError})`}${outcome.kestrelError !== undefined && outcome.accepted ? ` Kestrel refused (${outcome.kestrelError})` : ''}`,
    );
    for (const e of outcome.events) report.features.add(`event ${e.module}:${e.name}`);
    if (!outcome.accepted) {
      txs.forEach(unsend);
      report.features.add(`refused: ${outcome.klayrError}`);
    } else {
      recordOutbox(outcome);
      for (const r of outcome.results) report.features.add(`${name.replace(/ \d+$/, '')} result ${r}`);
    }
    if (outcome.differences.length > 0) {
      report.differences.push(...outcome.differences);
      stopped = stopAtDifference;
    }
    for (const chain of [a, b]) {
      const channel = await chains.klayrStore<{ outbox: { root: Buffer; size: number } }>(
        'interoperability',
        stores.channel,
        chain.chainID,
      );
      if (channel !== undefined && !channel.outbox.root.equals(outboxRootOf(outboxTo(chain)))) {
        report.differences.push({
          step: name,
          height: chains.height,
          what: 'harness',
          detail: `model of the mainchain's outbox to ${chain.name} differs from Klayr's (${channel.outbox.size} vs ${outboxTo(chain).length})`,
        });
        stopped = true;
      }
    }
    return outcome;
  };
  const status = async (chain: PartnerChain): Promise<number | undefined> =>
    (await chains.klayrStore<{ status: number }>('interoperability', stores.chainAccount, chain.chainID))?.status;
  const escrow = async (chain: PartnerChain): Promise<bigint> =>
    (await chains.klayrStore<{ amount: bigint }>('token', stores.escrow, Buffer.concat([chain.chainID, KLY])))
      ?.amount ?? 0n;

  /** Submits a CCU of `chain`; the model advances when Klayr executed it successfully. */
  const submitCCU = async (
    name: string,
    chain: PartnerChain,
    options: Omit<CCUOptions, 'blockTimestamp'>,
    timestamp = chains.nextTimestamp,
  ): Promise<StepOutcome | undefined> => {
    const built = chain.buildCCU({ ...options, blockTimestamp: timestamp }, outboxTo(chain));
    report.ccuParams.push(built.bytes);
    const outcome = await step(
      name,
      [ccuTx(relayer, built.params as CCUParams, BigInt(rng.int(3)) * 100000n)],
      timestamp,
    );
    if (outcome?.accepted === true && outcome.results[0] === 1) built.commit();
    // a CCM that makes Klayr panic (a mainchain terminating a chain while applying it) would block every later update: the sidechain never sent it
    if (outcome?.accepted === false && outcome.klayrError?.startsWith('panic') === true) chain.dropUndelivered();
    return outcome;
  };

  /** Several CCUs (and other transactions first) in one block; each chain's model advances with its CCU's result. */
  const submitCCUsTogether = async (
    name: string,
    updates: [PartnerChain, Omit<CCUOptions, 'blockTimestamp'>][],
    before: SignedTx[] = [],
  ): Promise<void> => {
    const timestamp = chains.nextTimestamp;
    const built = updates.map(([chain, options]) =>
      chain.buildCCU({ ...options, blockTimestamp: timestamp }, outboxTo(chain)),
    );
    report.ccuParams.push(...built.map((b) => b.bytes));
    const outcome = await step(
      name,
      [...before, ...built.map((b) => ccuTx(relayer, b.params as CCUParams))],
      timestamp,
    );
    if (outcome?.accepted === true)
      built.forEach((b, i) => {
        if (outcome.results[before.length + i] === 1) b.commit();
      });
  };

  /** recoverMessage for pending CCMs of the mainchain's outbox to a terminated chain (after initializeMessageRecovery). */
  const recoverMessages = async (chain: PartnerChain): Promise<void> => {
    const terminatedOutbox = await chains.klayrStore<{ outboxSize: number; partnerChainInboxSize: number }>(
      'interoperability',
      stores.terminatedOutbox,
      chain.chainID,
    );
    if (terminatedOutbox === undefined) return;
    const outbox = outboxTo(chain).slice(0, terminatedOutbox.outboxSize);
    const positions = outbox
      .map((_, i) => i)
      .filter(
        (i) =>
          i >= terminatedOutbox.partnerChainInboxSize &&
          codec.decode<CCMessage>(ccmSchema, outbox[i]!).status === CCM_STATUS_OK,
      );
    if (positions.length === 0) return;
    const chosen = positions.filter(() => rng.next() < 0.7);
    const recover = chosen.length > 0 ? chosen : [positions[0]!];
    const outboxTree = new MerkleTree(outbox.map(sha256));
    const proof = outboxTree.generateProof(recover.map((i) => leafHash(sha256(outbox[i]!))));
    report.features.add('recoverMessage sent');
    await step('recoverMessage', [
      recoverMessageTx(relayer, {
        chainID: chain.chainID,
        crossChainMessages: recover.map((i) => outbox[i]!),
        idxs: proof.idxs,
        siblingHashes: proof.siblingHashes,
      }),
    ]);
  };
  /** recoverState for token accounts in a terminated chain's state. */
  const recoverState = async (chain: PartnerChain, tree: CertifiedTree): Promise<void> => {
    if (tree.users.length === 0) return;
    const entries = tree.users.filter(() => rng.next() < 0.8);
    const recovered = entries.length > 0 ? entries : tree.users.slice(0, 1);
    const storeKeys = recovered.map((u) => Buffer.concat([u.address, u.tokenID]));
    const proof = chain.prove(
      tree,
      storeKeys.map((k) => Buffer.concat([keys.tokenUser, k])),
    );
    const substorePrefix = keys.tokenUser.subarray(4);
    const storeEntries = recovered.map((u, i) => ({
      substorePrefix,
      storeKey: storeKeys[i]!,
      storeValue: codec.encode(userStoreSchema, { availableBalance: u.availableBalance, lockedBalances: [] }),
      bitmap: proof.queries[i]!.bitmap,
    }));
    const tampered = rng.next() < 0.15;
    if (tampered)
      storeEntries[0] = {
        ...storeEntries[0]!,
        storeValue: codec.encode(userStoreSchema, {
          availableBalance: 1n + recovered[0]!.availableBalance,
          lockedBalances: [],
        }),
      };
    report.features.add('recoverState sent');
    // each account new on the mainchain pays its initialization out of the fee; now and then the fee is short of it
    const initializationFee = rng.next() < 0.1 ? 0n : USER_INITIALIZATION_FEE * BigInt(storeEntries.length);
    await step(
      `recoverState${tampered ? ' (tampered)' : ''}${initializationFee === 0n ? ' (no initialization fee)' : ''}`,
      [
        recoverStateTx(
          relayer,
          { chainID: chain.chainID, module: 'token', storeEntries, siblingHashes: proof.siblingHashes },
          initializationFee,
        ),
      ],
    );
    if (!tampered && rng.next() < 0.3)
      await step('recoverState again', [
        recoverStateTx(
          relayer,
          { chainID: chain.chainID, module: 'token', storeEntries, siblingHashes: proof.siblingHashes },
          initializationFee,
        ),
      ]);
  };

  // registrations: a valid one per chain; a duplicate is refused
  if (rng.next() < 0.1)
    await step('registerSidechain A short of the escrow fee', [
      registerSidechainTx(funder, a.registrationParams(), -1n),
    ]);
  await step('registerSidechain A', [registerSidechainTx(funder, a.registrationParams(), BigInt(rng.int(3)) * 1000n)]);
  if (rng.next() < 0.3)
    await step('registerSidechain A again (refused)', [
      registerSidechainTx(funder, { ...a.registrationParams(), chainID: chainIDFor(rng, taken) }),
    ]);
  await step('registerSidechain B', [registerSidechainTx(funder, b.registrationParams())]);
  if (rng.next() < 0.5) {
    const c = newSidechain('sidechain_c');
    const valid = c.registrationParams() as {
      sidechainValidators: { blsKey: Buffer; bftWeight: bigint }[];
      sidechainCertificateThreshold: bigint;
    };
    const total = valid.sidechainValidators.reduce((sum, v) => sum + v.bftWeight, 0n);
    const variants: [string, Record<string, unknown>, bigint][] = [
      ['name with invalid characters', { name: 'Not-Valid!' }, 0n],
      ['name of the mainchain', { name: 'klayr_mainchain' }, 0n],
      ['chain ID of another network', { chainID: Buffer.from('05000001', 'hex') }, 0n],
      ['chain ID of the mainchain', { chainID: MAINCHAIN_ID }, 0n],
      ['chain ID of B', { chainID: b.chainID }, 0n],
      ['validators unsorted', { sidechainValidators: [...valid.sidechainValidators].reverse() }, 0n],
      [
        'a validator of weight 0',
        { sidechainValidators: valid.sidechainValidators.map((v, i) => (i === 0 ? { ...v, bftWeight: 0n } : v)) },
        0n,
      ],
      ['threshold too small', { sidechainCertificateThreshold: total / 3n }, 0n],
      ['threshold too large', { sidechainCertificateThreshold: total + 1n }, 0n],
      ['fee below the registration fee', {}, -(CHAIN_REGISTRATION_FEE / 2n)],
    ];
    const [label, change, fee] = rng.pick(variants);
    if (label !== 'validators unsorted' || valid.sidechainValidators.length > 1)
      await step(`registerSidechain C: ${label}`, [
        registerSidechainTx(funder, { ...valid, ...change }, fee - ESCROW_INITIALIZATION_FEE * (fee < 0n ? 1n : 0n)),
      ]);
  }

  // first CCUs: the registration CCM first, then (for A) some CCMs of its own token
  // (now and then many of them, and both chains' first updates in one block)
  for (const chain of [a, b]) {
    chain.sendRegistration();
    if (chain === a)
      for (let i = rng.next() < 0.1 ? 20 + rng.int(20) : rng.int(3); i > 0; i--)
        chain.sendTransfer(
          Buffer.concat([chain.chainID, Buffer.alloc(4)]),
          BigInt(1 + rng.int(10 ** 6)),
          rng.bytes(20),
          rng.pick([user.address, rng.bytes(20)]),
          0n,
        );
  }
  if (rng.next() < 0.25) {
    report.features.add('CCUs together');
    await submitCCUsTogether(
      'first CCUs of A and B in one block',
      [
        [a, {}],
        [b, {}],
      ],
      rng.next() < 0.5 ? [transferCrossChainTx(user, a.chainID, rng.bytes(20), 1000n, 0n)] : [],
    );
  }
  for (const chain of [a, b]) {
    if (chain.delivered > 0) continue;
    const label = chain === a ? 'A' : 'B';
    if (rng.next() < 0.2) await submitCCU(`first CCU ${label} with a bad signature`, chain, { tamper: 'signature' });
    if (rng.next() < 0.15)
      await submitCCU(`first CCU ${label} without a certificate (refused)`, chain, { certificate: false });
    if (rng.next() < 0.15)
      await submitCCU(`first CCU ${label} with a certificate too old (refused)`, chain, {
        certificateAge: LIVENESS_LIMIT / 2 + 1 + rng.int(1000),
      });
    await submitCCU(`first CCU ${chain === a ? 'A' : 'B'}`, chain, {});
  }
  if ((await status(a)) !== STATUS.ACTIVE) return report;

  // KLY to A (escrowed on the mainchain), then some of it back in CCMs, with fees for the relayer
  const transfers = 1 + rng.int(3);
  for (let i = 0; i < transfers; i++) {
    await step(`transferCrossChain to A ${i}`, [
      transferCrossChainTx(
        user,
        a.chainID,
        rng.bytes(20),
        BigInt(1 + rng.int(10 ** 9)) * 1000n,
        BigInt(rng.int(3)) * 10000n,
      ),
    ]);
  }
  if (rng.next() < 0.3)
    await step('transferCrossChain to unknown chain', [
      transferCrossChainTx(user, chainIDFor(rng, taken), rng.bytes(20), 1000n, 0n),
    ]);
  if (rng.next() < 0.2)
    await step('transferCrossChain of more than the balance', [
      transferCrossChainTx(user, a.chainID, rng.bytes(20), 10n ** 17n, 0n),
    ]);
  if (rng.next() < 0.2)
    await step('transferCrossChain to the mainchain itself (refused)', [
      transferCrossChainTx(user, MAINCHAIN_ID, rng.bytes(20), 1000n, 0n),
    ]);
  let available = await escrow(a);
  const back = 1 + rng.int(4);
  for (let i = 0; i < back; i++) {
    const overdraw = rng.next() < 0.05;
    const amount = overdraw
      ? available + 1n
      : BigInt(rng.int(Number(available / 4n > 1000000n ? 1000000n : available / 4n + 1n)));
    const fee = BigInt(rng.int(3)) * BigInt(rng.int(1000));
    if (!overdraw) available -= amount + fee;
    a.sendTransfer(KLY, amount, rng.bytes(20), rng.pick([user.address, rng.bytes(20)]), fee);
    if (overdraw) report.features.add('escrow overdrawn');
  }
  // A sends to B (forwarded, or bounced while B is only registered), to an unknown chain (bounced), and a sidechain-only command
  if (rng.next() < 0.6)
    a.sendTransfer(KLY, BigInt(rng.int(1000)), rng.bytes(20), rng.bytes(20), BigInt(rng.int(2)) * 200000n, b.chainID);
  if (rng.next() < 0.4)
    a.sendTransfer(KLY, 0n, rng.bytes(20), rng.bytes(20), rng.pick([0n, 300000n]), chainIDFor(rng, taken));
  if (rng.next() < 0.2) {
    const params = codec.encode(klayrInteropSchemas.sidechainTerminatedCCMParamsSchema, {
      chainID: b.chainID,
      stateRoot: sha256(Buffer.from('root')),
    });
    a.send({
      module: 'interoperability',
      crossChainCommand: 'sidechainTerminated',
      receivingChainID: MAINCHAIN_ID,
      fee: rng.pick([0n, 200000n]),
      status: CCM_STATUS_OK,
      params,
    });
  }

  // refused or failing updates: each alone in its block, none changes the model
  const tampers: NonNullable<CCUOptions['tamper']>[] = [
    'signature',
    'bitmap',
    'witness',
    'belowThreshold',
    'oldCertificate',
    'keysUnsorted',
    'futureCertificate',
    'validatorsHash',
    'messageWitness',
    'thresholdOnly',
    'zeroWeight',
  ];
  const withUpdate = new Set(['bitmap', 'keysUnsorted', 'validatorsHash', 'zeroWeight']);
  for (const tamper of tampers) {
    if (rng.next() < 0.4)
      await submitCCU(`CCU A tampered: ${tamper}`, a, {
        tamper,
        ...(withUpdate.has(tamper) && rng.next() < 0.8 ? { validatorsUpdate: { add: 2, reweigh: 1, remove: 0 } } : {}),
      });
  }
  if (rng.next() < 0.2) {
    const unknown = new PartnerChain(chainIDFor(rng, taken), 'unknown', rng, keys, 1, rng.int(24));
    unknown.sendRegistration();
    await submitCCU('CCU from an unregistered chain (refused)', unknown, {});
  }
  // the CCMs, delivered in one or two updates (the second without a certificate)
  const pending = a.outbox.length - a.delivered;
  const split = rng.next() < 0.4 && pending > 1 ? 1 + rng.int(pending - 1) : pending;
  await submitCCU('CCU A with transfers', a, {
    include: split,
    ...(rng.next() < 0.4 ? { validatorsUpdate: { add: rng.int(3), reweigh: rng.int(3), remove: rng.int(2) } } : {}),
  });
  if (split < pending) await submitCCU('inbox-only CCU A', a, { certificate: false });

  // malformed or misrouted CCMs from A, and a transfer A returns (status not OK), in an update of their own
  if (rng.next() < 0.5) {
    const kind = rng.pick([
      'undecodable',
      'format',
      'sendingChain',
      'channelUnavailable',
      'returned',
      'unknownModule',
      'badParams',
    ] as const);
    const base = {
      module: 'token',
      crossChainCommand: 'transferCrossChain',
      nonce: a.nonce++,
      sendingChainID: a.chainID,
      receivingChainID: MAINCHAIN_ID,
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
    const raw = {
      undecodable: () => rng.bytes(1 + rng.int(40)),
      format: () => encodeCCM({ ...base, module: 'bad module!' }),
      sendingChain: () => encodeCCM({ ...base, sendingChainID: b.chainID }),
      channelUnavailable: () => encodeCCM({ ...base, status: 1 }),
      returned: () => encodeCCM({ ...base, status: rng.pick([2, 4, 64]) }),
      unknownModule: () => encodeCCM({ ...base, module: 'nft', fee: rng.pick([0n, 400000n]) }),
      badParams: () => encodeCCM({ ...base, params: rng.bytes(3) }),
    }[kind]();
    report.features.add(`malformed CCM: ${kind}`);
    a.sendRaw(raw);
    const outcome = await submitCCU(`CCU A with a CCM: ${kind}`, a, {});
    if (outcome?.accepted !== true || outcome.results[0] !== 1) a.dropUndelivered();
  }

  // B's channel: the mainchain sends to it while active; B certifies token accounts holding KLY
  if ((await status(b)) === STATUS.ACTIVE) {
    if (rng.next() < 0.8)
      await step('transferCrossChain to B', [
        transferCrossChainTx(user, b.chainID, rng.bytes(20), BigInt(1 + rng.int(10 ** 6)) * 1000n, 0n),
      ]);
    b.users.push(
      { address: rng.bytes(20), tokenID: KLY, availableBalance: BigInt(rng.int(1000)) },
      { address: rng.bytes(20), tokenID: KLY, availableBalance: rng.next() < 0.2 ? 10n ** 15n : BigInt(rng.int(1000)) },
    );
    if (rng.next() < 0.3)
      b.users.push({
        address: rng.bytes(20),
        tokenID: Buffer.concat([b.chainID, Buffer.alloc(4)]),
        availableBalance: 5n,
      });
    await submitCCU('CCU B (certifies its token accounts)', b, {
      receivedFromMainchain: rng.int(outboxTo(b).length + 1),
    });
  }

  // B closes its channel (channelTerminated): its terminated state is its last certified state
  const bCloses = rng.next() < 0.5;
  if (bCloses && (await status(b)) === STATUS.ACTIVE) {
    b.send({
      module: 'interoperability',
      crossChainCommand: 'channelTerminated',
      receivingChainID: MAINCHAIN_ID,
      fee: 0n,
      status: CCM_STATUS_OK,
      params: Buffer.alloc(0),
    });
    await submitCCU('CCU B with channelTerminated', b, { receivedFromMainchain: rng.int(outboxTo(b).length + 1) });
  }
  if ((await status(b)) === STATUS.TERMINATED) {
    report.features.add('B terminated');
    // a CCM to the terminated B: bounced, and A told that B is terminated
    if (rng.next() < 0.6) {
      a.sendTransfer(KLY, 0n, rng.bytes(20), rng.bytes(20), rng.pick([0n, 300000n]), b.chainID);
      await submitCCU('CCU A to terminated B', a, {});
    }
    if (rng.next() < 0.2)
      await step('transferCrossChain to terminated B', [
        transferCrossChainTx(user, b.chainID, rng.bytes(20), 1000n, 0n),
      ]);
    const terminated = await chains.klayrStore<{ stateRoot: Buffer }>(
      'interoperability',
      stores.terminatedState,
      b.chainID,
    );
    const tree = terminated === undefined ? undefined : b.trees.get(terminated.stateRoot.toString('hex'));
    if (tree !== undefined) {
      const channelKey = Buffer.concat([keys.channel, MAINCHAIN_ID]);
      const channelProof = b.prove(tree, [channelKey]);
      const bitmap = rng.next() < 0.1 ? Buffer.from([0xff]) : channelProof.queries[0]!.bitmap;
      await step('initializeMessageRecovery B', [
        initializeMessageRecoveryTx(relayer, {
          chainID: b.chainID,
          channel: tree.channel,
          bitmap,
          siblingHashes: channelProof.siblingHashes,
        }),
      ]);
      await recoverMessages(b);
      await recoverState(b, tree);
    }
  } else if ((await status(b)) === STATUS.ACTIVE) {
    // liveness: A certifies recently; B's last certificate grows older than the limit
    const bCertified = b.certified?.timestamp ?? 0;
    a.sendTransfer(Buffer.concat([a.chainID, Buffer.alloc(4)]), 1n, rng.bytes(20), rng.bytes(20), 0n);
    await submitCCU('CCU A before the pause', a, { certificateAge: 1 });
    const resume = Math.max(chains.nextTimestamp, bCertified + LIVENESS_LIMIT + 1 + rng.int(100));
    const aCertified = a.certified?.timestamp ?? 0;
    if (resume - aCertified < LIVENESS_LIMIT) {
      report.features.add('liveness');
      if (rng.next() < 0.5) {
        await step('terminateSidechainForLiveness B', [terminateForLivenessTx(funder, b.chainID)], resume);
      } else {
        // a CCM to B finds it not live: the mainchain terminates it while applying the CCU
        a.sendTransfer(KLY, 0n, rng.bytes(20), rng.bytes(20), 0n, b.chainID);
        await submitCCU('CCU A to B after the pause', a, {}, resume);
      }
      if (rng.next() < 0.3) await submitCCU('CCU B after the pause (not live)', b, {});
    }
  }
  if (rng.next() < 0.2)
    await step('terminateSidechainForLiveness A while live (refused)', [terminateForLivenessTx(funder, a.chainID)]);

  // A closes its channel itself; its state can then be recovered
  if (rng.next() < 0.3 && (await status(a)) === STATUS.ACTIVE) {
    a.users.push({ address: rng.bytes(20), tokenID: KLY, availableBalance: BigInt(rng.int(1000)) });
    a.send({
      module: 'interoperability',
      crossChainCommand: 'channelTerminated',
      receivingChainID: MAINCHAIN_ID,
      fee: 0n,
      status: CCM_STATUS_OK,
      params: Buffer.alloc(0),
    });
    await submitCCU('CCU A certifying accounts', a, { include: a.outbox.length - a.delivered - 1 });
    await submitCCU('CCU A with channelTerminated', a, {});
    const terminated = await chains.klayrStore<{ stateRoot: Buffer }>(
      'interoperability',
      stores.terminatedState,
      a.chainID,
    );
    const tree = terminated === undefined ? undefined : a.trees.get(terminated.stateRoot.toString('hex'));
    if (tree !== undefined) await recoverState(a, tree);
  }
  return report;
};

/** Decodes CCU params with klayr-framework's crossChainUpdateTransactionParams and with Kestrel's schema: equal, and re-encoded to the same bytes. */
export const crossCheckCCUParams = (bytes: Buffer): string | undefined => {
  const theirs = klayrCodec.codec.decode(klayrInteropSchemas.crossChainUpdateTransactionParams, bytes);
  const ours = codec.decode<CCUParams>(crossChainUpdateParamsSchema, bytes);
  if (!klayrCodec.codec.encode(klayrInteropSchemas.crossChainUpdateTransactionParams, ours).equals(bytes))
    return "Kestrel's decoding re-encodes differently with Klayr's schema";
  if (!codec.encode(crossChainUpdateParamsSchema, theirs).equals(bytes))
    return "Klayr's decoding re-encodes differently with Kestrel's schema";
  return undefined;
};
