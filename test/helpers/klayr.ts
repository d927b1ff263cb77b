// The @klayr/* packages are CommonJS oracles for differential tests.

import { readdirSync, statSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import blst from '@chainsafe/blst';
import type { Schema } from '../../src/lib/codec/index.js';
import * as kestrelBLS from '../../src/lib/crypto/bls.js';

const require = createRequire(import.meta.url);

// @klayr/db's native binary is fetched by an install script that cannot run offline;
// the framework files we read schemas from only need the module to load.
const moduleWithLoad = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const originalLoad = moduleWithLoad._load;
// @klayr/cryptography's BLS needs @chainsafe/blst 0.2.9, whose native build cannot be installed
// offline; its bls_lib gets Kestrel's BLS functions instead (checked against Klayr Core's devnet keys),
// so that klayr-framework's modules can run as an oracle.
const blsLib = {
  blsKeyValidate: kestrelBLS.blsValidateKey,
  blsKeyGen: kestrelBLS.blsKeyGen,
  blsSkToPk: kestrelBLS.blsPublicKeyFromPrivateKey,
  blsAggregate: (sigs: Buffer[]) => kestrelBLS.blsAggregate(sigs) ?? false,
  blsSign: kestrelBLS.blsSign,
  blsVerify: kestrelBLS.blsVerify,
  blsAggregateVerify: (pks: Buffer[], msgs: Buffer[], sig: Buffer) => {
    try {
      return (
        pks.length > 0 &&
        blst.aggregateVerify(
          msgs,
          pks.map((k) => blst.PublicKey.fromBytes(k, true)),
          blst.Signature.fromBytes(sig, true),
        )
      );
    } catch {
      return false;
    }
  },
  blsFastAggregateVerify: (pks: Buffer[], msg: Buffer, sig: Buffer) => kestrelBLS.blsFastAggregateVerify(pks, msg, sig),
  blsPopProve: kestrelBLS.blsPopProve,
  blsPopVerify: kestrelBLS.blsPopVerify,
};

moduleWithLoad._load = function load(this: unknown, request: string, ...rest: unknown[]) {
  if (request.endsWith('bin-package/index.node')) return new Proxy({}, { get: () => class NativeStub {} });
  const parent = rest[0] as { filename?: string } | undefined;
  if (request === './lib' && parent?.filename?.includes('cryptography/dist-node/bls_lib') === true) return blsLib;
  return originalLoad.call(this, request, ...rest);
};

/* eslint-disable @typescript-eslint/no-explicit-any */
export const klayrCodec: any = require('@klayr/codec');
export const klayrCrypto: any = require('@klayr/cryptography');
export const klayrTransactions: any = require('@klayr/transactions');
export const klayrValidator: any = require('@klayr/validator');
export const klayrChain: any = require('@klayr/chain');
export const klayrTree: any = require('@klayr/tree');
export const klayrInteropConstants: any = require('klayr-framework/dist-node/modules/interoperability/constants');

/**
 * klayr-framework's modules as Application.defaultApplication registers them, in its order: the mainchain set, or the
 * sidechain set (its interoperability module the sidechain's).
 */
export const klayrDefaultModules = (chain: 'mainchain' | 'sidechain' = 'mainchain'): any[] => {
  const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);
  const interoperability = fw('modules/interoperability');
  return [
    new (fw('modules/auth').AuthModule)(),
    new (fw('modules/validators').ValidatorsModule)(),
    new (fw('modules/token').TokenModule)(),
    new (fw('modules/fee').FeeModule)(),
    chain === 'mainchain'
      ? new interoperability.MainchainInteroperabilityModule()
      : new interoperability.SidechainInteroperabilityModule(),
    new (fw('modules/pos').PoSModule)(),
    new (fw('modules/random').RandomModule)(),
    new (fw('modules/dynamic_reward').DynamicRewardModule)(),
  ];
};
/* eslint-enable @typescript-eslint/no-explicit-any */

const isCodecSchema = (v: unknown): v is Schema => {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  if (typeof s.$id !== 'string' || s.type !== 'object' || typeof s.properties !== 'object' || s.properties === null)
    return false;
  return Object.values(s.properties).every(
    (p) => typeof p === 'object' && p !== null && typeof (p as { fieldNumber?: unknown }).fieldNumber === 'number',
  );
};

/** Every leaf has a dataType (some endpoint response schemas carry fieldNumbers but JSON leaves). */
const encodable = (p: Record<string, unknown>): boolean => {
  if (p.type === 'object')
    return Object.values(p.properties as Record<string, Record<string, unknown>>).every(encodable);
  if (p.type === 'array') return encodable(p.items as Record<string, unknown>);
  return typeof p.dataType === 'string';
};

let schemas: Schema[] | undefined;

/** Every codec schema klayr-framework's dist-node exports (found by walking its modules), deduplicated by content. */
export const klayrFrameworkSchemas = (): Schema[] => {
  if (schemas !== undefined) return schemas;
  const root = dirname(require.resolve('klayr-framework'));
  const files: string[] = [];
  const walkDir = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walkDir(path);
      else if (name.endsWith('.js')) files.push(path);
    }
  };
  walkDir(root);
  const found = new Map<string, Schema>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 3 || typeof value !== 'object' || value === null) return;
    if (isCodecSchema(value)) found.set(JSON.stringify(value), value);
    for (const key of Object.keys(value)) {
      try {
        visit((value as Record<string, unknown>)[key], depth + 1);
      } catch {
        // getters that throw are not schemas
      }
    }
  };
  for (const file of files) {
    try {
      visit(require(file), 0);
    } catch {
      // a few files need a running environment; they hold no schema we lack
    }
  }
  // nested property schemas also carry $id; keep the ones Klayr accepts as root schemas
  schemas = [...found.values()].filter((s) => {
    if (!encodable(s as unknown as Record<string, unknown>)) return false;
    try {
      return klayrCodec.validateSchema(s) === true;
    } catch {
      return false;
    }
  });
  return schemas;
};
