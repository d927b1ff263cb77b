import type { Logger } from 'pino';
import { addressToKlayr32, klayr32ToAddress } from '../../lib/crypto/address.js';
import type { EncryptedMessage } from '../../lib/crypto/encrypt.js';
import { decryptWithPassword } from '../../lib/crypto/encrypt.js';
import type { EndpointDefinition } from '../../lib/endpoint/definition.js';
import { hexBetween, hexBytes, uint32 } from '../../lib/endpoint/params.js';
import { required } from '../../lib/required.js';
import type { BinaryDB } from '../../storage/database.js';
import type { Chain } from '../chain/chain.js';
import type { GeneratedInfo } from '../generator/generated_info.js';
import {
  generatedInfoAddresses,
  generatedInfoKey,
  getGeneratedInfo,
  putGeneratedInfoSync,
  ZERO_GENERATED_INFO,
} from '../generator/generated_info.js';
import type { Generator } from '../generator/generator.js';
import { GeneratorKeyStore } from '../generator/key_store.js';

const address = { type: 'string', format: 'klayr32' } as const;
const height = uint32;

/** generator_setKeys data: plain keys, or keys encrypted with a password (Klayr's key file `encrypted` object). */
const plainKeysData = {
  type: 'object',
  required: ['generatorKey', 'generatorPrivateKey', 'blsKey', 'blsPrivateKey'],
  properties: {
    generatorKey: hexBytes(32),
    generatorPrivateKey: hexBytes(64),
    blsKey: hexBytes(48),
    blsPrivateKey: hexBytes(32),
  },
} as const;
const encryptedKeysData = {
  type: 'object',
  required: ['version', 'ciphertext', 'kdf', 'kdfparams', 'cipher', 'cipherparams'],
  properties: {
    version: { type: 'string', minLength: 1, maxLength: 16 },
    // the encoded plain keys are under 200 bytes
    ciphertext: hexBetween(1, 1024),
    mac: hexBytes(32),
    kdf: { type: 'string', enum: ['argon2id', 'PBKDF2'] },
    kdfparams: {
      type: 'object',
      required: ['parallelism', 'iterations', 'memorySize', 'salt'],
      properties: { parallelism: uint32, iterations: uint32, memorySize: uint32, salt: hexBetween(1, 64) },
    },
    cipher: { type: 'string', enum: ['aes-128-gcm', 'aes-256-gcm'] },
    cipherparams: { type: 'object', required: ['iv', 'tag'], properties: { iv: hexBetween(1, 32), tag: hexBytes(16) } },
  },
} as const;
const infoKeys = ['height', 'maxHeightGenerated', 'maxHeightPrevoted'] as const;
const sameInfo = (a: GeneratedInfo, b: GeneratedInfo): boolean => infoKeys.every((k) => a[k] === b[k]);

/** The generator namespace (Klayr Core's): keys held here, their generation status and the safe status to resume with. */
export const generatorEndpoints = (deps: {
  chain: Chain;
  generator: Generator;
  db: BinaryDB;
  blockTime: number;
  genesisHeight: number;
  /** Where key imports and generation switched on or off are logged (info). */
  logger?: Pick<Logger, 'info'>;
}): Record<string, EndpointDefinition> => {
  const { chain, generator, db, logger } = deps;
  const keys = new GeneratorKeyStore(db);
  const known = (addr: Buffer) => {
    if (!keys.has(addr)) throw new Error(`Keys for ${addressToKlayr32(addr)} is not registered.`);
  };
  return {
    getStatus: {
      description:
        'Every validator with generated info here: its last generated heights and whether generation is enabled.',
      handler: () => {
        const status = [];
        for (const addr of generatedInfoAddresses(db)) {
          const enabled = generator.enabledKeys(addr);
          status.push({
            ...getGeneratedInfo(db, addr),
            generatorKey: enabled?.generatorKey.toString('hex') ?? '',
            blsKey: enabled?.blsKey.toString('hex') ?? '',
            address: addressToKlayr32(addr),
            enabled: enabled !== undefined,
          });
        }
        return { status };
      },
    },
    setStatus: {
      description:
        'Sets the last generated info of a validator whose keys are held here (e.g. after moving it from another node); never below what it already generated.',
      params: {
        type: 'object',
        required: ['address', 'height', 'maxHeightGenerated', 'maxHeightPrevoted'],
        properties: { address, height, maxHeightGenerated: height, maxHeightPrevoted: height },
      },
      handler: ({ params }) => {
        const addr = klayr32ToAddress(params.address as string);
        known(addr);
        const info = {
          height: params.height as number,
          maxHeightGenerated: params.maxHeightGenerated as number,
          maxHeightPrevoted: params.maxHeightPrevoted as number,
        };
        if (info.maxHeightGenerated > info.height || info.maxHeightPrevoted > info.height)
          throw new Error('maxHeightGenerated and maxHeightPrevoted cannot be above height.');
        // going below what this validator already generated would let it sign a second block at those heights
        const last = getGeneratedInfo(db, addr);
        if (info.height < last.height || info.maxHeightPrevoted < last.maxHeightPrevoted) {
          throw new Error(
            `The status would allow contradicting blocks: the validator already generated height ${last.height} with maxHeightPrevoted ${last.maxHeightPrevoted}.`,
          );
        }
        putGeneratedInfoSync(db, addr, info);
        return {};
      },
    },
    updateStatus: {
      description:
        'Enables generation for a validator (its keys decrypted with the password, its generated info confirmed) or disables it.',
      params: {
        type: 'object',
        required: ['address', 'password', 'enable', 'height', 'maxHeightGenerated', 'maxHeightPrevoted'],
        properties: {
          address,
          password: { type: 'string' },
          enable: { type: 'boolean' },
          height,
          maxHeightGenerated: height,
          maxHeightPrevoted: height,
        },
      },
      handler: async ({ params }) => {
        const addr = klayr32ToAddress(params.address as string);
        const stored = keys.get(addr);
        if (stored === undefined)
          throw new Error(`Generator with address: ${String(params.address)} does not have keys registered.`);
        const plain =
          stored.type === 'plain'
            ? stored.keys
            : GeneratorKeyStore.decodePlain(
                await decryptWithPassword(stored.message as EncryptedMessage, params.password as string),
              );
        if (params.enable !== true) {
          generator.disable(addr);
          logger?.info({ address: params.address }, `Block generation disabled for ${String(params.address)}`);
          return { address: params.address, enabled: false };
        }
        const request = {
          height: params.height as number,
          maxHeightGenerated: params.maxHeightGenerated as number,
          maxHeightPrevoted: params.maxHeightPrevoted as number,
        };
        const tip = chain.lastBlock().header;
        if (!(tip.height >= request.height && tip.maxHeightPrevoted >= request.maxHeightPrevoted))
          throw new Error('Failed to enable forging as the node is not synced to the network.');
        const hasInfo = db.get(generatedInfoKey(addr)) !== undefined;
        const last = getGeneratedInfo(db, addr);
        if (hasInfo && !sameInfo(request, last)) throw new Error('Request does not match last generated information.');
        if (!hasInfo && !sameInfo(request, ZERO_GENERATED_INFO))
          throw new Error('Last generated information does not exist.');
        if (!hasInfo) putGeneratedInfoSync(db, addr, request);
        generator.enable({ address: addr, ...plain });
        logger?.info(
          { address: params.address, ...request },
          `Block generation enabled for ${String(params.address)} (from height ${request.height})`,
        );
        return { address: params.address, enabled: true };
      },
    },
    estimateSafeStatus: {
      description:
        'Generated info that cannot contradict blocks this validator may have generated before a shutdown at timeShutdown.',
      params: { type: 'object', required: ['timeShutdown'], properties: { timeShutdown: uint32 } },
      handler: ({ params }) => {
        const finalizedHeight = chain.finalizedHeight();
        if (finalizedHeight === deps.genesisHeight)
          throw new Error('At least one block after the genesis block must be finalized.');
        const finalized = required(
          chain.headerAt(finalizedHeight),
          `The header at finalized height ${finalizedHeight}`,
        );
        if ((params.timeShutdown as number) > finalized.timestamp)
          throw new Error(`A block at the time shutdown ${String(params.timeShutdown)} must be finalized.`);
        const blocksPerMonth = Math.ceil((60 * 60 * 24 * 30) / deps.blockTime);
        const monthAgoHeight = Math.max(finalizedHeight - blocksPerMonth, deps.genesisHeight + 1);
        const monthAgo = required(chain.headerAt(monthAgoHeight), `The header at height ${monthAgoHeight}`);
        const missed =
          Math.ceil((finalized.timestamp - monthAgo.timestamp) / deps.blockTime) - (finalized.height - monthAgo.height);
        const safe = finalizedHeight + missed;
        return { height: safe, maxHeightGenerated: safe, maxHeightPrevoted: safe };
      },
    },
    setKeys: {
      description:
        'Stores the generator and BLS keys of a validator, plain or encrypted; generation stays off until updateStatus enables it.',
      params: {
        type: 'object',
        required: ['address', 'type', 'data'],
        properties: {
          address,
          type: { type: 'string', enum: ['plain', 'encrypted'] },
          data: { type: 'object' },
        },
        if: { properties: { type: { const: 'plain' } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword; this object is a schema, never awaited.
        then: { properties: { data: plainKeysData } },
        else: { properties: { data: encryptedKeysData } },
      },
      handler: ({ params }) => {
        const addr = klayr32ToAddress(params.address as string);
        const data = params.data as Record<string, unknown>;
        if (params.type === 'plain') {
          const hex = (name: string, bytes: number): Buffer => {
            const value = data[name];
            if (typeof value !== 'string' || !/^[0-9a-f]*$/i.test(value) || value.length !== bytes * 2)
              throw new Error(`data.${name} must be ${bytes} bytes of hex.`);
            return Buffer.from(value, 'hex');
          };
          keys.set(addr, {
            type: 'plain',
            keys: {
              generatorKey: hex('generatorKey', 32),
              generatorPrivateKey: hex('generatorPrivateKey', 64),
              blsKey: hex('blsKey', 48),
              blsPrivateKey: hex('blsPrivateKey', 32),
            },
          });
        } else {
          const m = data as unknown as EncryptedMessage;
          if (typeof m.ciphertext !== 'string' || typeof m.kdfparams !== 'object' || typeof m.cipherparams !== 'object')
            throw new Error('data must be an encrypted message (ciphertext, kdf, kdfparams, cipher, cipherparams).');
          keys.set(addr, {
            type: 'encrypted',
            message: {
              version: m.version,
              ciphertext: m.ciphertext,
              kdf: m.kdf,
              kdfparams: m.kdfparams,
              cipher: m.cipher,
              cipherparams: m.cipherparams,
            },
          });
        }
        generator.disable(addr);
        logger?.info(
          { address: params.address, type: params.type },
          `Generator keys imported for ${String(params.address)} (${String(params.type)}); generation stays off until generator:enable`,
        );
        return {};
      },
    },
    getAllKeys: {
      description: 'The keys held here: plain ones in hex, encrypted ones as stored.',
      handler: () => ({
        keys: keys.all().map(({ address: addr, keys: k }) => ({
          address: addressToKlayr32(addr),
          type: k.type,
          data:
            k.type === 'plain'
              ? {
                  generatorKey: k.keys.generatorKey.toString('hex'),
                  generatorPrivateKey: k.keys.generatorPrivateKey.toString('hex'),
                  blsKey: k.keys.blsKey.toString('hex'),
                  blsPrivateKey: k.keys.blsPrivateKey.toString('hex'),
                }
              : k.message,
        })),
      }),
    },
    hasKeys: {
      params: { type: 'object', required: ['address'], properties: { address } },
      handler: ({ params }) => ({ hasKey: keys.has(klayr32ToAddress(params.address as string)) }),
    },
  };
};
