import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { codec } from '../../src/lib/codec/index.js';
import { klayr32ToAddress } from '../../src/lib/crypto/address.js';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { runCLI } from '../helpers/cli.js';
import { devnetPassphrase } from '../helpers/devnet.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const TOKEN_ID = '0400000000000000';
const KLY = 100000000n;
const PASSWORD = 'kestrel validator';
const rewardMintedSchema = {
  $id: '/test/rewardMinted',
  type: 'object',
  required: ['amount', 'reduction'],
  properties: { amount: { dataType: 'uint64', fieldNumber: 1 }, reduction: { dataType: 'uint32', fieldNumber: 2 } },
} as const;

interface KeysFile {
  keys: { address: string; plain: { generatorKey: string; blsKey: string; blsProofOfPossession: string } }[];
}

interface Generated {
  height: number;
  amount: bigint;
  reduction: number;
}

const cli = async (...args: string[]): Promise<string> => {
  const { code, stdout, stderr } = await runCLI(...args);
  assert.equal(code, 0, `kestrel ${args[0]} failed: ${stderr}`);
  return stdout;
};

// About ten minutes of two-second blocks until the first election has run and both new validators generated twice.
const LONG = process.env.KESTREL_LONG_TESTS === '1';

describe('validator flow on a live devnet node, operated with the CLI over IPC', {
  skip: LONG ? false : 'takes minutes: KESTREL_LONG_TESTS=1 runs it',
}, () => {
  it('keys:create, keys:import, random_setHashOnion, generator_setStatus, generator:enable --use-status-value under allowedMethods ["generator","system","random"]: the validator with an onion earns every block reward, the one without earns nothing after its first block', async () => {
    const dataPath = tempDataPath();
    const config = loadConfig({ dataPath, apiPort: await freePort() });
    // the shortest block time Klayr's generator works with: it waits blockTime / 5 after a missed slot, in whole seconds
    config.genesis.blockTime = 2;
    config.rpc.modes = ['ipc'];
    config.rpc.allowedMethods = ['generator', 'system', 'random'];
    config.modules.dynamicReward = { ...config.modules.dynamicReward, offset: 1 };
    const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    // what the test observes, in process: the operator's CLI reaches only the allowed namespaces
    const observe = async (method: string, params: Record<string, unknown>) =>
      node.registry.get(method)!.handler({ params, transport: 'ipc' }) as Promise<Record<string, unknown>>;
    const balance = async (address: string) =>
      BigInt((await observe('token_getBalance', { address, tokenID: TOKEN_ID })).availableBalance as string);
    try {
      const passphrase = devnetPassphrase();
      const [withOnion, withoutOnion] = await Promise.all(
        [200, 201].map(async (offset) => {
          const file = join(tempDataPath(), `keys-${offset}.json`);
          await cli(
            'keys:create',
            '--passphrase',
            passphrase,
            '--password',
            PASSWORD,
            '--chainid',
            '4',
            '--offset',
            String(offset),
            '--output',
            file,
          );
          const key = (JSON.parse(readFileSync(file, 'utf8')) as KeysFile).keys[0]!;
          return {
            file,
            key,
            address: key.address,
            path: `m/44'/134'/${offset}'`,
            stake: offset === 200 ? 5000n * KLY : 2000n * KLY,
          };
        }),
      );

      // the chain side, from a wallet: funding, registration with the keys file's keys, self-stake (created offline, posted to the pool in process)
      const post = async (args: string[]) => {
        const { transaction } = JSON.parse(
          await cli('transaction:create', ...args, '--passphrase', passphrase, '--offline', '--chain-id', '04000000'),
        ) as { transaction: string };
        await observe('txpool_postTransaction', { transaction });
      };
      let funderNonce = 0;
      for (const v of [withOnion!, withoutOnion!]) {
        await post([
          'token',
          'transfer',
          '10000000',
          '--params',
          JSON.stringify({
            tokenID: TOKEN_ID,
            amount: (v.stake + 100n * KLY).toString(),
            recipientAddress: v.address,
            data: '',
          }),
          '--nonce',
          String(funderNonce++),
        ]);
      }
      const waitFor = async (what: string, done: () => Promise<boolean>) => {
        for (let i = 0; !(await done()); i++) {
          assert.ok(i < 240, what);
          await sleep(500);
        }
      };
      const funded = async (address: string) =>
        (await observe('token_getBalances', { address })).balances !== undefined &&
        (await balance(address).catch(() => 0n)) > 0n;
      await waitFor(
        'the funding transfers were included',
        async () => (await funded(withOnion!.address)) && (await funded(withoutOnion!.address)),
      );
      for (const v of [withOnion!, withoutOnion!]) {
        const { generatorKey, blsKey, blsProofOfPossession } = v.key.plain;
        await post([
          'pos',
          'registerValidator',
          '1100000000',
          '--params',
          JSON.stringify({
            name: `kestrel_${v.address.slice(3, 9)}`,
            blsKey,
            proofOfPossession: blsProofOfPossession,
            generatorKey,
          }),
          '--key-derivation-path',
          v.path,
          '--nonce',
          '0',
        ]);
        await post([
          'pos',
          'stake',
          '10000000',
          '--params',
          JSON.stringify({ stakes: [{ validatorAddress: v.address, amount: v.stake.toString() }] }),
          '--key-derivation-path',
          v.path,
          '--nonce',
          '1',
        ]);
      }
      await waitFor('registration and self-stake were included', async () => {
        const validators = await Promise.all(
          [withOnion!, withoutOnion!].map((v) =>
            observe('pos_getValidator', { address: v.address }).catch(() => undefined),
          ),
        );
        return validators.every((v) => v !== undefined && BigInt(v.totalStake as string) > 0n);
      });

      // the operator's side, over IPC with the spec's allowedMethods
      const ipc = ['--data-path', dataPath];
      for (const v of [withOnion!, withoutOnion!]) {
        await cli('keys:import', '--file-path', v.file, ...ipc);
        if (v === withOnion)
          await cli('endpoint:invoke', 'random_setHashOnion', JSON.stringify({ address: v.address }), ...ipc);
        await cli(
          'endpoint:invoke',
          'generator_setStatus',
          JSON.stringify({ address: v.address, height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 }),
          ...ipc,
        );
        assert.equal(
          await cli('generator:enable', v.address, '--use-status-value', '--password', PASSWORD, ...ipc),
          `Enabled block generation for ${v.address}\n`,
        );
      }
      const denied = await runCLI(
        'endpoint:invoke',
        'token_getBalance',
        JSON.stringify({ address: withOnion!.address, tokenID: TOKEN_ID }),
        ...ipc,
      );
      assert.match(denied.stderr, /disabled in node config/);

      // wait for the election, then for two blocks of each
      const start = Object.fromEntries(
        await Promise.all([withOnion!, withoutOnion!].map(async (v) => [v.address, await balance(v.address)] as const)),
      );
      const generated = new Map<string, Generated[]>([withOnion!, withoutOnion!].map((v) => [v.address, []]));
      const addressOf = new Map(
        [withOnion!, withoutOnion!].map((v) => [klayr32ToAddress(v.address).toString('hex'), v.address]),
      );
      let seen = node.chain!.lastBlock().header.height;
      const deadline = Date.now() + 25 * 60 * 1000;
      while ([...generated.values()].some((blocks) => blocks.length < 2)) {
        assert.ok(Date.now() < deadline, `both new validators generate twice (height ${seen})`);
        await sleep(500);
        const tip = node.chain!.lastBlock().header.height;
        for (let height = seen + 1; height <= tip; height++) {
          const generator = addressOf.get(node.chain!.headerAt(height)!.generatorAddress.toString('hex'));
          if (generator === undefined) continue;
          const events = (await observe('chain_getEvents', { height })) as unknown as {
            module: string;
            name: string;
            data: string;
          }[];
          const minted = events.find((e) => e.module === 'dynamicReward' && e.name === 'rewardMinted')!;
          generated.get(generator)!.push({
            height,
            ...codec.decode<{ amount: bigint; reduction: number }>(rewardMintedSchema, Buffer.from(minted.data, 'hex')),
          });
        }
        seen = tip;
      }

      const onionBlocks = generated.get(withOnion!.address)!;
      for (const b of onionBlocks)
        assert.ok(b.reduction === 0 && b.amount > 0n, `a valid seed reveal and a full reward at ${b.height}`);
      assert.equal(
        await balance(withOnion!.address),
        start[withOnion!.address]! + onionBlocks.reduce((sum, b) => sum + b.amount, 0n),
        'its balance grew by its rewards',
      );
      const plainBlocks = generated.get(withoutOnion!.address)!;
      assert.equal(plainBlocks[0]!.reduction, 0, 'a first reveal needs no previous one');
      for (const b of plainBlocks.slice(1))
        assert.ok(b.reduction === 1 && b.amount === 0n, `an invalid seed reveal and no reward at ${b.height}`);
      assert.equal(
        await balance(withoutOnion!.address),
        start[withoutOnion!.address]! + plainBlocks[0]!.amount,
        'nothing earned after the first block',
      );
    } finally {
      await node.stop();
    }
  });
});
