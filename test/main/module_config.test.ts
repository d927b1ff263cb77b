import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig, NETWORKS } from '../../src/main/config/index.js';
import { moduleConfigProblems } from '../../src/main/config/module_config.js';
import { klayrValidator } from '../helpers/klayr.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const klayrSchema = (module: string): any =>
  require(`klayr-framework/dist-node/modules/${module}/schemas`).configSchema;
const klayrFolder: Record<string, string> = { token: 'token', fee: 'fee', pos: 'pos', dynamicReward: 'dynamic_reward' };

/** Klayr validates the module's whole config (defaults merged in); without its required list, the settings given. */
const klayrRefuses = (module: string, settings: Record<string, unknown>): boolean => {
  const { required: _required, ...schema } = klayrSchema(klayrFolder[module]!);
  try {
    klayrValidator.validator.validate({ ...schema, $id: `${schema.$id as string}/kestrel-test` }, settings);
    return false;
  } catch {
    return true;
  }
};

const cases: [string, Record<string, unknown>][] = [
  ['pos', { numberActiveValidators: 'abc' }],
  ['pos', { numberActiveValidators: 0 }],
  ['pos', { numberActiveValidators: 200 }],
  ['pos', { maxLengthName: 9 }],
  ['pos', { maxNumberSentStakes: 21 }],
  ['pos', { failSafeInactiveWindow: 43199 }],
  ['pos', { maxBFTWeightCap: 299 }],
  ['pos', { useInvalidBLSKey: 'yes' }],
  ['pos', { validatorRegistrationFee: '-1' }],
  ['pos', { posTokenID: 'zz' }],
  ['fee', { feeTokenID: 'abc' }],
  ['fee', { minFeePerByte: -1 }],
  ['fee', { feePoolAddress: 'kly0' }],
  ['token', { userAccountInitializationFee: 5 }],
  ['token', { escrowAccountInitializationFee: '18446744073709551616' }],
  ['dynamicReward', { tokenID: '04000000' }],
  ['dynamicReward', { offset: 0 }],
  ['dynamicReward', { brackets: ['1', 'x'] }],
];

describe("modules.<name> settings checked against the modules' config schemas (Klayr's), before any module is built", () => {
  for (const [module, settings] of cases) {
    it(`${module} ${JSON.stringify(settings)} is refused, as klayr-framework refuses it, naming the setting`, () => {
      assert.equal(klayrRefuses(module, settings), true, 'klayr-framework refuses it');
      const problems = moduleConfigProblems({ [module]: settings }, 10);
      assert.equal(problems.length, 1, problems.join('; '));
      assert.match(problems[0]!, new RegExp(`^config\\.modules\\.${module}\\.${Object.keys(settings)[0]!}`));
    });
  }

  it("valid settings pass on both sides; every embedded network's config loads", () => {
    const settings = {
      pos: { numberActiveValidators: 101, maxBFTWeightCap: 1000 },
      fee: { minFeePerByte: 1000 },
      token: { userAccountInitializationFee: '1' },
      dynamicReward: { offset: 10, brackets: ['5'] },
    };
    for (const [module, value] of Object.entries(settings)) assert.equal(klayrRefuses(module, value), false, module);
    assert.deepEqual(moduleConfigProblems(settings, 10), []);
    for (const network of NETWORKS)
      assert.doesNotThrow(() => loadConfig({ network, dataPath: tempDataPath() }), network);
  });

  /** Klayr's PoSModule validates its whole config (defaults merged) against bounds derived from the block time. */
  const klayrPoSRefuses = (blockTime: number, settings: Record<string, unknown>): boolean => {
    const pos = require('klayr-framework/dist-node/modules/pos/module');
    const { defaultConfig } = require('klayr-framework/dist-node/modules/pos/constants');
    // _getConfigSchema writes the bounds into Klayr's shared schema object: validate at once, restore the 10-second bounds after
    const schema = new pos.PoSModule()._getConfigSchema(blockTime);
    try {
      klayrValidator.validator.validate(
        { ...schema, $id: `/pos/config/kestrel-test-${blockTime}` },
        { ...defaultConfig, posTokenID: '0400000000000000', ...settings },
      );
      return false;
    } catch {
      return true;
    } finally {
      new pos.PoSModule()._getConfigSchema(10);
    }
  };

  for (const [blockTime, settings, refused] of [
    [3, {}, true],
    [3, { failSafeInactiveWindow: 144000 }, false],
    [3, { failSafeInactiveWindow: 143999 }, true],
    [2, { failSafeInactiveWindow: 216000, punishmentWindowSelfStaking: 216000 }, false],
    [20, { failSafeInactiveWindow: 30000 }, false],
    [20, { failSafeInactiveWindow: 21599 }, true],
    [10, { punishmentWindowSelfStaking: 3153601 }, true],
    [100, {}, true],
  ] as [number, Record<string, unknown>, boolean][]) {
    it(`pos ${JSON.stringify(settings)} with ${blockTime}-second blocks is ${refused ? 'refused' : 'accepted'} (its windows bounded by the block time, defaults merged in), as klayr-framework's PoSModule`, () => {
      assert.equal(klayrPoSRefuses(blockTime, settings), refused, 'klayr-framework');
      const problems = moduleConfigProblems({ pos: settings }, blockTime);
      assert.equal(problems.length > 0, refused, problems.join('; '));
      if (refused)
        assert.match(
          problems[0]!,
          /^config\.modules\.pos\.(failSafeInactiveWindow|punishmentWindowSelfStaking): must be [<>]= \d+/,
        );
    });
  }

  it('a config file with a bad module setting stops loading with the path of the problem', () => {
    const file = join(tempDataPath(), 'config.json');
    writeFileSync(file, JSON.stringify({ modules: { pos: { numberStandbyValidators: 3 } } }));
    assert.throws(
      () => loadConfig({ config: file, dataPath: tempDataPath() }),
      /config\.modules\.pos\.numberStandbyValidators: must be <= 2/,
    );
  });
});
