// Every genesis rule of the modules Klayr Core registers: each `it` breaks exactly one rule of a
// valid genesis block and both Kestrel and klayr-framework (the oracle) refuse it, for that rule.
import { describe, it } from 'node:test';
import { addressToKlayr32 } from '../../src/lib/crypto/address.js';
import { devnetGenesis } from '../helpers/genesis_compare.js';
import {
  addressOf,
  assertBothAccept,
  assertBothRefuse,
  assertLegacyRefuses,
  decodeAsset,
  hex,
  KLY,
  mutateAsset,
  publicKeys,
  ruleBase,
  STAKED,
  sidechainInfo,
  terminatedStateAccount,
  withoutAsset,
} from '../helpers/genesis_rules.js';

const base = ruleBase();
const MAX_UINT64 = 2n ** 64n - 1n;
const token = (mutate: Parameters<typeof mutateAsset<'token'>>[2]) => mutateAsset(base, 'token', mutate);
const pos = (mutate: Parameters<typeof mutateAsset<'pos'>>[2]) => mutateAsset(base, 'pos', mutate);
const interop = (mutate: Parameters<typeof mutateAsset<'interoperability'>>[2]) =>
  mutateAsset(base, 'interoperability', mutate);
const auth = (mutate: Parameters<typeof mutateAsset<'auth'>>[2]) => mutateAsset(base, 'auth', mutate);
const legacy = (mutate: Parameters<typeof mutateAsset<'legacy'>>[2]) => mutateAsset(base, 'legacy', mutate);
const posValidators = decodeAsset(base, 'pos').validators;
const [v0, v1, v2] = posValidators.map((v) => v.address).sort(Buffer.compare) as [Buffer, Buffer, Buffer];
const staker = decodeAsset(base, 'pos').stakers[0]!.address;
const tokenID = (chain: string, local: string) => hex(chain + local);

describe('the base genesis block', () => {
  it('is accepted by both nodes', async () => {
    await assertBothAccept(base);
  });
});

describe('auth genesis rules', () => {
  it('an address must be 20 bytes long', async () => {
    await assertBothRefuse(
      auth((g) => (g.authDataSubstore[0]!.address = Buffer.alloc(19, 1))),
      'Invalid store key length for auth module.',
    );
  });

  it('an account must satisfy the auth account schema (numberOfSignatures at most 64)', async () => {
    await assertBothRefuse(
      auth((g) => (g.authDataSubstore[1]!.authAccount.numberOfSignatures = 65)),
      /must be <= 64/,
    );
  });

  it('an account must satisfy the auth account schema (32-byte keys)', async () => {
    await assertBothRefuse(
      auth((g) => g.authDataSubstore[1]!.authAccount.optionalKeys.push(Buffer.alloc(31, 0xff))),
      /optionalKeys\.2/,
    );
  });

  it('mandatory keys must be sorted', async () => {
    await assertBothRefuse(
      auth((g) => g.authDataSubstore[1]!.authAccount.mandatoryKeys.unshift(Buffer.alloc(32, 0xff))),
      'Invalid store value for auth module. MandatoryKeys are not sorted lexicographically.',
    );
  });

  it('mandatory keys must be unique', async () => {
    await assertBothRefuse(
      auth((g) =>
        g.authDataSubstore[1]!.authAccount.mandatoryKeys.push(g.authDataSubstore[1]!.authAccount.mandatoryKeys[0]!),
      ),
      'Invalid store value for auth module. MandatoryKeys are not unique.',
    );
  });

  it('optional keys must be sorted', async () => {
    await assertBothRefuse(
      auth((g) => g.authDataSubstore[1]!.authAccount.optionalKeys.reverse()),
      'Invalid store value for auth module. OptionalKeys are not sorted lexicographically.',
    );
  });

  it('optional keys must be unique', async () => {
    await assertBothRefuse(
      auth((g) =>
        g.authDataSubstore[1]!.authAccount.optionalKeys.push(g.authDataSubstore[1]!.authAccount.optionalKeys[1]!),
      ),
      'Invalid store value for auth module. OptionalKeys are not unique.',
    );
  });

  it('mandatory and optional keys together are at most maxNumberOfSignatures (64)', async () => {
    const keys = Array.from({ length: 65 }, (_, i) => Buffer.alloc(32, i + 1));
    const block = auth(
      (g) =>
        (g.authDataSubstore[1]!.authAccount = {
          nonce: 0n,
          numberOfSignatures: 33,
          mandatoryKeys: keys.slice(0, 33),
          optionalKeys: keys.slice(33),
        }),
    );
    await assertBothRefuse(block, 'The count of Mandatory and Optional keys should be maximum 64.');
  });

  it('no key is both mandatory and optional', async () => {
    await assertBothRefuse(
      auth(
        (g) =>
          (g.authDataSubstore[1]!.authAccount.optionalKeys = [...g.authDataSubstore[1]!.authAccount.mandatoryKeys]),
      ),
      'Invalid combination of Mandatory and Optional keys. Repeated keys across Mandatory and Optional were found.',
    );
  });

  it('numberOfSignatures is at most the number of keys', async () => {
    await assertBothRefuse(
      auth((g) => (g.authDataSubstore[1]!.authAccount.numberOfSignatures = 4)),
      'The numberOfSignatures is bigger than the count of Mandatory and Optional keys.',
    );
  });

  it('numberOfSignatures is at least the number of mandatory keys', async () => {
    await assertBothRefuse(
      auth((g) => (g.authDataSubstore[1]!.authAccount.numberOfSignatures = 0)),
      'The numberOfSignatures is smaller than the count of Mandatory keys.',
    );
  });

  it('addresses are unique', async () => {
    await assertBothRefuse(
      auth((g) => (g.authDataSubstore[1]!.address = g.authDataSubstore[0]!.address)),
      'Duplicate address in the for auth module.',
    );
  });
});

describe('token genesis rules', () => {
  it('the asset satisfies the genesis schema (8-byte token IDs)', async () => {
    await assertBothRefuse(
      token((g) => (g.userSubstore[0]!.tokenID = Buffer.alloc(7))),
      /\.userSubstore\.0\.tokenID/,
    );
  });

  it('an address and token ID pair appears once among the users', async () => {
    const first = decodeAsset(base, 'token').userSubstore[0]!;
    await assertBothRefuse(
      token((g) => g.userSubstore.splice(1, 0, { ...g.userSubstore[0]! })),
      `Address ${addressToKlayr32(first.address)} and tokenID ${first.tokenID.toString('hex')} pair is duplicated.`,
    );
  });

  it('users are sorted by address, then token ID', async () => {
    await assertBothRefuse(
      token((g) => g.userSubstore.reverse()),
      'UserSubstore must be sorted by address and tokenID.',
    );
  });

  it('no locked balance is 0', async () => {
    const first = decodeAsset(base, 'token').userSubstore[0]!;
    await assertBothRefuse(
      token((g) => (g.userSubstore[0]!.lockedBalances = [{ module: 'token', amount: 0n }])),
      `Address ${addressToKlayr32(first.address)} contains 0 amount locked balance.`,
    );
  });

  it('locked balances are sorted by module', async () => {
    await assertBothRefuse(
      token(
        (g) =>
          (g.userSubstore[0]!.lockedBalances = [
            { module: 'pos', amount: 1n },
            { module: 'auth', amount: 1n },
          ]),
      ),
      'Locked balances must be sorted by module.',
    );
  });

  it('a module locks at most one balance of a user', async () => {
    const first = decodeAsset(base, 'token').userSubstore[0]!;
    await assertBothRefuse(
      token(
        (g) =>
          (g.userSubstore[0]!.lockedBalances = [
            { module: 'pos', amount: 1n },
            { module: 'pos', amount: 1n },
          ]),
      ),
      `Address ${addressToKlayr32(first.address)} has duplicate module in locked balances.`,
    );
  });

  it('users are checked in order: an unsorted pair before a later duplicate is refused as unsorted', async () => {
    await assertBothRefuse(
      token((g) => {
        [g.userSubstore[0], g.userSubstore[1]] = [g.userSubstore[1]!, g.userSubstore[0]!];
        g.userSubstore.splice(5, 0, { ...g.userSubstore[4]! });
      }),
      'UserSubstore must be sorted by address and tokenID.',
    );
  });

  it('a token ID has one supply entry', async () => {
    await assertBothRefuse(
      token((g) => g.supplySubstore.push({ ...g.supplySubstore[0]! })),
      `Supply store token ID ${KLY.toString('hex')} is duplicated.`,
    );
  });

  it('supplies are sorted by token ID', async () => {
    await assertBothRefuse(
      token((g) => g.supplySubstore.unshift({ tokenID: tokenID('04000000', 'ffffffff'), totalSupply: 0n })),
      'SupplySubstore must be sorted by tokenID.',
    );
  });

  it('an escrow chain ID and token ID pair appears once', async () => {
    await assertBothRefuse(
      token((g) => g.escrowSubstore.push({ ...g.escrowSubstore[1]! })),
      `Escrow store escrowChainID 04000002 and tokenID ${KLY.toString('hex')} pair is duplicated.`,
    );
  });

  it('escrows are sorted by escrow chain ID, then token ID', async () => {
    await assertBothRefuse(
      token((g) => g.escrowSubstore.reverse()),
      'EscrowSubstore must be sorted by escrowChainID and tokenID.',
    );
  });

  it('"all tokens supported" (one entry with an empty chain ID) lists no token IDs', async () => {
    await assertBothRefuse(
      token(
        (g) =>
          (g.supportedTokensSubstore = [
            { chainID: Buffer.alloc(0), supportedTokenIDs: [tokenID('04000001', '00000000')] },
          ]),
      ),
      'supportedTokenIds must be an empty array when all tokens are supported.',
    );
  });

  it('otherwise every supported-tokens chain ID is 4 bytes long', async () => {
    await assertBothRefuse(
      token(
        (g) =>
          (g.supportedTokensSubstore = [
            { chainID: hex('04000001'), supportedTokenIDs: [] },
            { chainID: hex('040002'), supportedTokenIDs: [] },
          ]),
      ),
      'supportedTokensSubstore chainIDs must be of length 4.',
    );
  });

  it('a chain has one supported-tokens entry', async () => {
    await assertBothRefuse(
      token(
        (g) =>
          (g.supportedTokensSubstore = [
            { chainID: hex('04000001'), supportedTokenIDs: [] },
            { chainID: hex('04000001'), supportedTokenIDs: [] },
          ]),
      ),
      'supportedTokenIDsSet chain ID 04000001 is duplicated.',
    );
  });

  it('supported-tokens entries are sorted by chain ID', async () => {
    await assertBothRefuse(
      token(
        (g) =>
          (g.supportedTokensSubstore = [
            { chainID: hex('04000002'), supportedTokenIDs: [] },
            { chainID: hex('04000001'), supportedTokenIDs: [] },
          ]),
      ),
      'supportedTokensSubstore must be sorted by chainID.',
    );
  });

  it("a chain's supported token IDs are unique", async () => {
    const id = tokenID('04000001', '00000001');
    await assertBothRefuse(
      token((g) => (g.supportedTokensSubstore = [{ chainID: hex('04000001'), supportedTokenIDs: [id, id] }])),
      'supportedTokensSubstore tokenIDs must be unique and sorted by lexicographically.',
    );
  });

  it("a chain's supported token IDs are sorted", async () => {
    await assertBothRefuse(
      token(
        (g) =>
          (g.supportedTokensSubstore = [
            {
              chainID: hex('04000001'),
              supportedTokenIDs: [tokenID('04000001', '00000002'), tokenID('04000001', '00000001')],
            },
          ]),
      ),
      'supportedTokensSubstore tokenIDs must be unique and sorted by lexicographically.',
    );
  });

  it("a chain's supported token IDs are that chain's tokens", async () => {
    await assertBothRefuse(
      token(
        (g) =>
          (g.supportedTokensSubstore = [
            { chainID: hex('04000001'), supportedTokenIDs: [tokenID('04000002', '00000000')] },
          ]),
      ),
      'supportedTokensSubstore tokenIDs must match the chainID.',
    );
  });

  it('supported-tokens entries are checked in order: a duplicate chain before a short chain ID is refused as duplicated', async () => {
    const entries = [
      { chainID: hex('04000001'), supportedTokenIDs: [] },
      { chainID: hex('04000001'), supportedTokenIDs: [] },
      { chainID: hex('05'), supportedTokenIDs: [] },
    ];
    await assertBothRefuse(
      token((g) => (g.supportedTokensSubstore = entries)),
      'supportedTokenIDsSet chain ID 04000001 is duplicated.',
    );
  });

  it('the computed supply of a native token fits in a uint64', async () => {
    await assertBothRefuse(
      token((g) => (g.userSubstore[0]!.availableBalance = MAX_UINT64)),
      `Total supply for tokenID: ${KLY.toString('hex')} exceeds uint64 range.`,
    );
  });

  it('the stored supply of a native token equals its balances, locks and escrows', async () => {
    await assertBothRefuse(
      token((g) => (g.supplySubstore[0]!.totalSupply += 1n)),
      'Stored total supply conflicts with computed supply.',
    );
  });

  it('a native token held by users has a supply entry', async () => {
    await assertBothRefuse(
      token((g) => (g.supplySubstore = [])),
      'Stored total supply conflicts with computed supply.',
    );
  });

  it("a native token's stored supply is not 0, even where its balances add up to 0", async () => {
    const other = tokenID('04000000', '00000001');
    await assertBothRefuse(
      token((g) => {
        const first = g.userSubstore[0]!;
        g.userSubstore.splice(1, 0, {
          address: first.address,
          tokenID: other,
          availableBalance: 0n,
          lockedBalances: [],
        });
        g.supplySubstore.push({ tokenID: other, totalSupply: 0n });
      }),
      'Stored total supply conflicts with computed supply.',
    );
  });

  it('a token nobody holds has no stored supply but 0 (a native token)', async () => {
    await assertBothRefuse(
      token((g) => g.supplySubstore.push({ tokenID: tokenID('04000000', '00000007'), totalSupply: 5n })),
      'Stored total supply is non zero but cannot be computed.',
    );
  });

  it('a token nobody holds has no stored supply but 0 (a foreign token)', async () => {
    await assertBothRefuse(
      token((g) => g.supplySubstore.push({ tokenID: tokenID('05000000', '00000000'), totalSupply: 5n })),
      'Stored total supply is non zero but cannot be computed.',
    );
  });

  it("escrowed amounts count toward a token's supply, foreign tokens included", async () => {
    await assertBothRefuse(
      token((g) =>
        g.escrowSubstore.push({ escrowChainID: hex('04000002'), tokenID: tokenID('05000000', '00000000'), amount: 5n }),
      ),
      'Stored total supply conflicts with computed supply.',
    );
  });
});

describe('pos genesis rules', () => {
  it('the asset satisfies the genesis schema (names of at most 20 characters)', async () => {
    await assertBothRefuse(
      pos((g) => (g.validators[0]!.name = 'a'.repeat(21))),
      /\.validators\.0\.name/,
    );
  });

  it('the asset satisfies the genesis schema (commission at most 10000)', async () => {
    await assertBothRefuse(
      pos((g) => (g.validators[0]!.commission = 10001)),
      /must be <= 10000/,
    );
  });

  it('a validator name is a valid username', async () => {
    await assertBothRefuse(
      pos((g) => (g.validators[1]!.name = 'Genesis_1')),
      'Invalid validator name Genesis_1.',
    );
  });

  it("a validator's lastCommissionIncreaseHeight is not above the genesis height", async () => {
    const v = posValidators[2]!;
    await assertBothRefuse(
      pos((g) => (g.validators[2]!.lastCommissionIncreaseHeight = 1)),
      `Invalid lastCommissionIncreaseHeight 1 for ${addressToKlayr32(v.address)}.`,
    );
  });

  it("a validator's sharing coefficients are sorted by token ID", async () => {
    const coefficients = [
      { tokenID: tokenID('04000000', '00000001'), coefficient: Buffer.from([1]) },
      { tokenID: KLY, coefficient: Buffer.from([1]) },
    ];
    await assertBothRefuse(
      pos((g) => (g.validators[0]!.sharingCoefficients = coefficients)),
      'SharingCoefficients must be sorted by tokenID.',
    );
  });

  it('validator addresses are unique', async () => {
    await assertBothRefuse(
      pos((g) => (g.validators[2]!.address = g.validators[0]!.address)),
      'Validator address is not unique.',
    );
  });

  it('validator names are unique', async () => {
    await assertBothRefuse(
      pos((g) => (g.validators[2]!.name = g.validators[0]!.name)),
      'Validator name is not unique.',
    );
  });

  it("a staker sends at most 10 stakes (Klayr's constant, whatever modules.pos.maxNumberSentStakes says)", async () => {
    const stakes = Array.from({ length: 11 }, (_, i) => ({
      validatorAddress: addressOf(i + 1),
      amount: 1n,
      sharingCoefficients: [],
    }));
    await assertBothRefuse(
      pos((g) => (g.stakers[0]!.stakes = stakes)),
      'Sent stake exceeds max stake 10.',
      { pos: { maxNumberSentStakes: 20 } },
    );
  });

  it('a staker stakes a validator at most once', async () => {
    await assertBothRefuse(
      pos((g) => g.stakers[0]!.stakes.push({ ...g.stakers[0]!.stakes[0]! })),
      'Sent stake validator address is not unique.',
    );
  });

  it("a staker's stakes are sorted by validator address", async () => {
    const stake = (validatorAddress: Buffer) => ({ validatorAddress, amount: 1n, sharingCoefficients: [] });
    await assertBothRefuse(
      pos((g) => (g.stakers[0]!.stakes = [stake(v2), stake(v0)])),
      'Sent stake validator address is not lexicographically ordered.',
    );
  });

  it('a stake goes to a genesis validator', async () => {
    await assertBothRefuse(
      pos((g) => (g.stakers[0]!.stakes[0]!.validatorAddress = addressOf(9))),
      'Sent stake includes non existing validator address.',
    );
  });

  it("a stake's sharing coefficient is for a token the validator shares", async () => {
    await assertBothRefuse(
      pos((g) => (g.stakers[0]!.stakes[0]!.sharingCoefficients = [{ tokenID: KLY, coefficient: Buffer.from([1]) }])),
      'Validator does not have corresponding sharing coefficient or the coefficient value is not consistent.',
    );
  });

  it("a stake's sharing coefficient is not above the validator's", async () => {
    const block = pos((g) => {
      g.validators.find((v) => v.address.equals(staker))!.sharingCoefficients = [
        { tokenID: KLY, coefficient: Buffer.from([1]) },
      ];
      g.stakers[0]!.stakes[0]!.sharingCoefficients = [{ tokenID: KLY, coefficient: Buffer.from([2]) }];
    });
    await assertBothRefuse(
      block,
      'Validator does not have corresponding sharing coefficient or the coefficient value is not consistent.',
    );
  });

  it("a stake's sharing coefficients are sorted by token ID", async () => {
    const other = tokenID('04000000', '00000001');
    const block = pos((g) => {
      g.validators.find((v) => v.address.equals(staker))!.sharingCoefficients = [
        { tokenID: KLY, coefficient: Buffer.from([1]) },
        { tokenID: other, coefficient: Buffer.from([1]) },
      ];
      g.stakers[0]!.stakes[0]!.sharingCoefficients = [
        { tokenID: other, coefficient: Buffer.from([1]) },
        { tokenID: KLY, coefficient: Buffer.from([1]) },
      ];
    });
    await assertBothRefuse(block, 'stakeSharingCoefficients must be sorted by tokenID.');
  });

  it('a staker has at most modules.pos.maxNumberPendingUnlocks pending unlocks', async () => {
    const unlocks = Array.from({ length: 6 }, (_, i) => ({ validatorAddress: v0, amount: 1n, unstakeHeight: 10 - i }));
    await assertBothRefuse(
      pos((g) => (g.stakers[0]!.pendingUnlocks = unlocks)),
      'PendingUnlocks exceeds max unlocking 5.',
      { pos: { maxNumberPendingUnlocks: 5 } },
    );
  });

  it('pending unlocks are sorted by validator address, then unstake height and amount, both descending', async () => {
    const unlocks = [
      { validatorAddress: v0, amount: 1n, unstakeHeight: 1 },
      { validatorAddress: v0, amount: 1n, unstakeHeight: 2 },
    ];
    await assertBothRefuse(
      pos((g) => (g.stakers[0]!.pendingUnlocks = unlocks)),
      'PendingUnlocks are not lexicographically ordered.',
    );
  });

  it('a pending unlock is from a genesis validator', async () => {
    await assertBothRefuse(
      pos((g) => (g.stakers[0]!.pendingUnlocks[0]!.validatorAddress = addressOf(9))),
      'Pending unlocks includes non existing validator address.',
    );
  });

  it('staker addresses are unique', async () => {
    await assertBothRefuse(
      pos((g) => g.stakers.push({ address: g.stakers[0]!.address, stakes: [], pendingUnlocks: [] })),
      'Staker address is not unique.',
    );
  });

  it('initial validators are unique', async () => {
    await assertBothRefuse(
      pos((g) => g.genesisData.initValidators.push(g.genesisData.initValidators[0]!)),
      'Init validators address is not unique.',
    );
  });

  it('initial validators are genesis validators', async () => {
    await assertBothRefuse(
      pos((g) => (g.genesisData.initValidators[1] = addressOf(9))),
      'Init validators includes non existing validator address.',
    );
  });

  it('there are at most modules.pos.numberActiveValidators initial validators', async () => {
    await assertBothRefuse(base, 'Init validators is greater than number of active validators 2.', {
      pos: { numberActiveValidators: 2 },
    });
  });

  it('the stake a validator receives fits in a uint64', async () => {
    const block = pos((g) => {
      g.stakers = [addressOf(1), addressOf(2)].map((address) => ({
        address,
        stakes: [{ validatorAddress: v1, amount: 2n ** 63n, sharingCoefficients: [] }],
        pendingUnlocks: [],
      }));
    });
    await assertBothRefuse(block, 'Stakes received out of range.');
  });

  it("a staker's stakes and pending unlocks are exactly its pos lock (at finalization)", async () => {
    await assertBothRefuse(
      pos((g) => (g.stakers[0]!.stakes[0]!.amount = STAKED + 1n)),
      'Staked amount is not locked',
    );
  });

  it('a staker with no token account has no pos lock (at finalization)', async () => {
    await assertBothRefuse(
      pos((g) => (g.stakers[0]!.address = addressOf(0xee))),
      'Staked amount is not locked',
    );
  });
});

describe('validators genesis rules (keys registered for the pos validators at finalization)', () => {
  it('a BLS key is registered once', async () => {
    const block = pos((g) => {
      g.validators[1]!.blsKey = g.validators[0]!.blsKey;
      g.validators[1]!.proofOfPossession = g.validators[0]!.proofOfPossession;
    });
    await assertBothRefuse(
      block,
      `The BLS key ${posValidators[0]!.blsKey.toString('hex')} has already been registered in the chain.`,
    );
  });

  it('a proof of possession proves the BLS key', async () => {
    await assertBothRefuse(
      pos((g) => (g.validators[1]!.proofOfPossession = g.validators[0]!.proofOfPossession)),
      'Invalid proof of possession for the given BLS key.',
    );
  });
});

describe('interoperability (mainchain) genesis rules', () => {
  const timestamp = base.header.timestamp;

  it('the asset satisfies the genesis schema (chain names of at most 32 characters)', async () => {
    await assertBothRefuse(
      interop((g) => (g.ownChainName = 'k'.repeat(33))),
      /\.ownChainName/,
    );
  });

  it('the own chain name is klayr_mainchain', async () => {
    await assertBothRefuse(
      interop((g) => (g.ownChainName = 'klayr_sidechain')),
      'ownChainName must be equal to klayr_mainchain.',
    );
  });

  it('the own chain nonce is 0 when no chain is registered', async () => {
    const block = interop((g) => {
      g.chainInfos = [];
      g.terminatedStateAccounts = [];
      g.terminatedOutboxAccounts = [];
    });
    await assertBothRefuse(block, 'ownChainNonce must be 0 if chainInfos is empty.');
  });

  it('the own chain nonce is positive when chains are registered', async () => {
    await assertBothRefuse(
      interop((g) => (g.ownChainNonce = 0n)),
      'ownChainNonce must be positive if chainInfos is not empty.',
    );
  });

  it('registered chain IDs are unique', async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[1]!.chainID = g.chainInfos[0]!.chainID)),
      "chainInfos doesn't hold unique chainID.",
    );
  });

  it('registered chains are sorted by chain ID', async () => {
    await assertBothRefuse(
      interop((g) => g.chainInfos.reverse()),
      'chainInfos is not ordered lexicographically by chainID.',
    );
  });

  it('registered chain names are unique', async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[1]!.chainData.name = g.chainInfos[0]!.chainData.name)),
      'chainData.name must be pairwise distinct.',
    );
  });

  it('a registered chain is not the mainchain', async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainID = hex('04000000'))),
      'chainInfo.chainID must not be equal to 04000000.',
    );
  });

  it("a registered chain is on the mainchain's network", async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainID = hex('03000001'))),
      'chainInfo.chainID[0] must be equal to 4.',
    );
  });

  it("a registered chain's last certificate is older than the genesis block", async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainData.lastCertificate.timestamp = timestamp)),
      'chainData.lastCertificate.timestamp must be less than header.timestamp.',
    );
  });

  it("a registered chain's name uses [a-z0-9!@$&_.] only", async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainData.name = 'Sidechain')),
      'Invalid chainData.name property. It should contain only characters from the set [a-z0-9!@$&_.].',
    );
  });

  it("a registered chain's status is registered, active or terminated", async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainData.status = 3)),
      'chainData.status must be one of 0, 1, 2',
    );
  });

  it('a terminated chain has a terminated state account', async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainData.status = 2)),
      'For each chainInfo with status terminated there should be a corresponding entry in terminatedStateAccounts.',
    );
  });

  it("a channel's message fee token is KLY", async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.channelData.messageFeeTokenID = tokenID('04000001', '00000000'))),
      'channelData.messageFeeTokenID is not equal to Token.getTokenIDKLY().',
    );
  });

  it("a channel's minimum return fee per byte is 1000", async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.channelData.minReturnFeePerByte = 999n)),
      'channelData.minReturnFeePerByte is not equal to 1000.',
    );
  });

  it('the asset satisfies the genesis schema (a registered chain has at least 1 active validator)', async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainValidators.activeValidators = [])),
      /must NOT have fewer than 1 items/,
    );
  });

  it('the asset satisfies the genesis schema (a registered chain has at most 199 active validators)', async () => {
    const activeValidators = Array.from({ length: 200 }, (_, i) => ({
      blsKey: Buffer.concat([Buffer.from([1]), Buffer.alloc(45), Buffer.from([i >> 8, i & 255])]),
      bftWeight: 1n,
    }));
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainValidators = { activeValidators, certificateThreshold: 100n })),
      /must NOT have more than 199 items/,
    );
  });

  it('active validators are sorted by BLS key', async () => {
    await assertBothRefuse(
      interop((g) => g.chainInfos[0]!.chainValidators.activeValidators.reverse()),
      'activeValidators must be ordered lexicographically by blsKey property.',
    );
  });

  it("active validators' BLS keys are unique", async () => {
    await assertBothRefuse(
      interop(
        (g) =>
          (g.chainInfos[0]!.chainValidators.activeValidators[1]!.blsKey =
            g.chainInfos[0]!.chainValidators.activeValidators[0]!.blsKey),
      ),
      'All blsKey properties must be pairwise distinct.',
    );
  });

  it("an active validator's BFT weight is positive", async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainValidators.activeValidators[2]!.bftWeight = 0n)),
      'validator.bftWeight must be > 0.',
    );
  });

  it("the active validators' total BFT weight fits in a uint64", async () => {
    await assertBothRefuse(
      interop((g) => {
        for (const v of g.chainInfos[0]!.chainValidators.activeValidators) v.bftWeight = 2n ** 62n;
      }),
      `totalWeight has to be less than or equal to ${MAX_UINT64}.`,
    );
  });

  it('the certificate threshold is at most the total BFT weight', async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainValidators.certificateThreshold = 41n)),
      'Invalid certificateThreshold input.',
    );
  });

  it('the certificate threshold is above a third of the total BFT weight', async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainValidators.certificateThreshold = 13n)),
      'Invalid certificateThreshold input.',
    );
  });

  it("the last certificate's validators hash is the active validators' and threshold's", async () => {
    await assertBothRefuse(
      interop((g) => (g.chainInfos[0]!.chainData.lastCertificate.validatorsHash = Buffer.alloc(32, 1))),
      'Invalid validatorsHash from chainData.lastCertificate.',
    );
  });

  it("terminated state accounts' chain IDs are unique", async () => {
    await assertBothRefuse(
      interop((g) => g.terminatedStateAccounts.push({ ...g.terminatedStateAccounts[0]! })),
      "terminatedStateAccounts don't hold unique chainID.",
    );
  });

  it('terminated state accounts are sorted by chain ID', async () => {
    const block = interop((g) => {
      g.chainInfos[0]!.chainData.status = 2;
      g.terminatedStateAccounts = [terminatedStateAccount(g.chainInfos[1]!), terminatedStateAccount(g.chainInfos[0]!)];
    });
    await assertBothRefuse(block, 'terminatedStateAccounts must be ordered lexicographically by chainID.');
  });

  it("a terminated state account is not the mainchain's", async () => {
    const mainchain = sidechainInfo(timestamp, '04000000', 'x', 2);
    await assertBothRefuse(
      interop((g) => g.terminatedStateAccounts.unshift(terminatedStateAccount(mainchain))),
      'stateAccount.chainID must not be equal to 04000000.',
    );
  });

  it("a terminated state account is on the mainchain's network", async () => {
    const foreign = sidechainInfo(timestamp, '03000005', 'x', 2);
    await assertBothRefuse(
      interop((g) => g.terminatedStateAccounts.unshift(terminatedStateAccount(foreign))),
      'stateAccount.chainID[0] must be equal to 4.',
    );
  });

  it('a terminated state account is for a registered chain that is terminated', async () => {
    await assertBothRefuse(
      interop((g) => g.terminatedStateAccounts.unshift(terminatedStateAccount(g.chainInfos[0]!))),
      'For each terminatedStateAccount there should be a corresponding chainInfo at TERMINATED state.',
    );
  });

  it('a terminated state account is for a registered chain', async () => {
    const unknown = sidechainInfo(timestamp, '04000003', 'x', 2);
    await assertBothRefuse(
      interop((g) => g.terminatedStateAccounts.push(terminatedStateAccount(unknown))),
      'For each terminatedStateAccount there should be a corresponding chainInfo at TERMINATED state.',
    );
  });

  it("a terminated state account's state root is the chain's last certified state root", async () => {
    await assertBothRefuse(
      interop((g) => (g.terminatedStateAccounts[0]!.terminatedStateAccount.stateRoot = Buffer.alloc(32, 2))),
      "stateAccount.stateRoot doesn't match chainInfo.chainData.lastCertificate.stateRoot.",
    );
  });

  it("a terminated state account's mainchain state root is empty", async () => {
    await assertBothRefuse(
      interop((g) => (g.terminatedStateAccounts[0]!.terminatedStateAccount.mainchainStateRoot = Buffer.alloc(32, 2))),
      'stateAccount.mainchainStateRoot is not equal to e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.',
    );
  });

  it('a terminated state account is initialized', async () => {
    await assertBothRefuse(
      interop((g) => (g.terminatedStateAccounts[0]!.terminatedStateAccount.initialized = false)),
      'stateAccount is not initialized.',
    );
  });

  it("terminated outbox accounts' chain IDs are unique", async () => {
    await assertBothRefuse(
      interop((g) => g.terminatedOutboxAccounts.push({ ...g.terminatedOutboxAccounts[0]! })),
      'terminatedOutboxAccounts do not hold unique chainID.',
    );
  });

  it('terminated outbox accounts are sorted by chain ID', async () => {
    await assertBothRefuse(
      interop((g) =>
        g.terminatedOutboxAccounts.unshift({ ...g.terminatedOutboxAccounts[0]!, chainID: hex('04000003') }),
      ),
      'terminatedOutboxAccounts must be ordered lexicographically by chainID.',
    );
  });

  it('a terminated outbox account has a terminated state account', async () => {
    await assertBothRefuse(
      interop((g) => g.terminatedOutboxAccounts.push({ ...g.terminatedOutboxAccounts[0]!, chainID: hex('04000003') })),
      'outboxAccount with chainID: 04000003 must have a corresponding entry in terminatedStateAccounts.',
    );
  });

  it('a registered chain paying message fees in the native token has its escrow account (at finalization)', async () => {
    await assertBothRefuse(
      token((g) => (g.escrowSubstore = g.escrowSubstore.slice(1))),
      "Corresponding escrow account doesn't exist.",
    );
  });

  it("the genesis block has an interoperability asset (Klayr's finalization reads it unconditionally)", async () => {
    await assertBothRefuse(
      withoutAsset(base, 'interoperability'),
      /interoperability asset|Cannot read properties of undefined/,
    );
  });
});

describe('fee, random and dynamicReward: no genesis rules', () => {
  it('neither node reads a genesis asset for them: any bytes are accepted', async () => {
    const junk = ['fee', 'random', 'dynamicReward'].map((module) => ({
      module,
      data: Buffer.from('not a genesis asset'),
    }));
    await assertBothAccept({ ...base, assets: [...base.assets, ...junk] });
  });
});

describe("legacy genesis rules (Klayr Core's legacy module: Kestrel alone, klayr-framework accepts the block)", () => {
  it('the asset satisfies the genesis schema (8-byte legacy addresses)', async () => {
    await assertLegacyRefuses(
      legacy((g) => (g.accounts[0]!.address = Buffer.alloc(7, 1))),
      /\.accounts\.0\.address/,
    );
  });

  it('legacy addresses are unique', async () => {
    await assertLegacyRefuses(
      legacy((g) => (g.accounts[1]!.address = g.accounts[0]!.address)),
      'Legacy address entries are not pair-wise distinct',
    );
  });

  it('the legacy balances total less than 2^64', async () => {
    await assertLegacyRefuses(
      legacy((g) => (g.accounts[0]!.balance = MAX_UINT64)),
      'Total balance for all legacy accounts cannot exceed 2^64',
    );
  });

  it("the legacy balances total the legacy reserve's legacy lock", async () => {
    await assertLegacyRefuses(
      legacy((g) => (g.accounts[0]!.balance += 1n)),
      'Total balance for all legacy accounts is not equal to locked amount',
    );
  });
});

describe('what Klayr does not refuse at genesis, Kestrel does not either', () => {
  it('fewer than 3 initial rounds', async () => {
    await assertBothAccept(pos((g) => (g.genesisData.initRounds = 1)));
  });

  it('no initial validators at all (the modules set an empty validator set)', async () => {
    await assertBothAccept(pos((g) => (g.genesisData.initValidators = [])));
  });

  it('unsorted initial validators, and a banned one', async () => {
    await assertBothAccept(
      pos((g) => {
        g.genesisData.initValidators.reverse();
        g.validators[0]!.isBanned = true;
      }),
    );
  });

  it('a supply entry of 0 for a token nobody holds, native or foreign', async () => {
    await assertBothAccept(
      token((g) =>
        g.supplySubstore.push(
          { tokenID: tokenID('04000000', '00000007'), totalSupply: 0n },
          { tokenID: tokenID('05000000', '00000000'), totalSupply: 0n },
        ),
      ),
    );
  });

  it('auth accounts in any address order, and optional keys without required signatures', async () => {
    await assertBothAccept(
      auth((g) => {
        g.authDataSubstore.reverse();
        g.authDataSubstore[0]!.authAccount = {
          nonce: 0n,
          numberOfSignatures: 0,
          mandatoryKeys: [],
          optionalKeys: publicKeys(2),
        };
      }),
    );
  });

  it('a wrong proof of possession where modules.pos.useInvalidBLSKey registers no BLS keys', async () => {
    await assertBothAccept(
      pos((g) => (g.validators[1]!.proofOfPossession = g.validators[0]!.proofOfPossession)),
      { pos: { useInvalidBLSKey: true } },
    );
  });
});

describe('the rules hold on the devnet genesis block itself', () => {
  it('the devnet block with its supply raised by 1 is refused by both', async () => {
    const devnet = devnetGenesis();
    await assertBothRefuse(
      mutateAsset(devnet, 'token', (g) => (g.supplySubstore[0]!.totalSupply += 1n)),
      'Stored total supply conflicts with computed supply.',
    );
  });
});
