// One random change to one field of one genesis asset (a scalar replaced or nudged by one, an
// array reordered, shortened, emptied or given a repeated item), for acceptance-parity tests.
import type { Block } from '../../src/lib/chain/block.js';
import { computeAssetRoot } from '../../src/lib/chain/block.js';
import type { Schema, SchemaProperty } from '../../src/lib/codec/index.js';
import { codec } from '../../src/lib/codec/index.js';
import { genesisAuthStoreSchema } from '../../src/modules/auth/schemas.js';
import { genesisInteroperabilitySchema } from '../../src/modules/interoperability/schemas.js';
import { genesisStoreSchema } from '../../src/modules/pos/schemas.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import { randomName } from './genesis_generator_values.js';
import type { Rng } from './random.js';

/** The assets klayr-framework can judge (it has no legacy module). */
export const MUTABLE_ASSETS: Record<string, Schema> = {
  auth: genesisAuthStoreSchema,
  interoperability: genesisInteroperabilitySchema,
  pos: genesisStoreSchema,
  token: genesisTokenStoreSchema,
};

interface Site {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  prop: SchemaProperty;
  path: string;
}

const sitesOf = (value: Record<string, unknown>, schema: Schema | SchemaProperty, path: string): Site[] =>
  Object.entries(schema.properties ?? {}).flatMap(([name, prop]) => {
    const v = value[name];
    const here: Site = { holder: value, key: name, prop, path: `${path}.${name}` };
    if (prop.type === 'object') return [here, ...sitesOf(v as Record<string, unknown>, prop, here.path)];
    if (prop.type !== 'array') return [here];
    const items = (v as unknown[]).flatMap((item, i) => {
      const site: Site = { holder: v as unknown[], key: i, prop: prop.items!, path: `${here.path}.${i}` };
      return prop.items!.type === 'object'
        ? [site, ...sitesOf(item as Record<string, unknown>, prop.items!, site.path)]
        : [site];
    });
    return [here, ...items];
  });

const nudge = (rng: Rng, v: bigint, max: bigint): bigint =>
  rng.next() < 0.5 ? (v === 0n ? 1n : v - 1n) : v === max ? v - 1n : v + 1n;

const mutateArray = (rng: Rng, items: unknown[]): string => {
  const kind = rng.pick(['reverse', 'repeat', 'drop', 'clear', 'swap']);
  if (kind === 'reverse') items.reverse();
  else if (kind === 'repeat' && items.length > 0)
    items.splice(rng.int(items.length + 1), 0, items[rng.int(items.length)]);
  else if (kind === 'drop' && items.length > 0) items.splice(rng.int(items.length), 1);
  else if (kind === 'clear') items.length = 0;
  else if (kind === 'swap' && items.length > 1) {
    const i = rng.int(items.length - 1);
    [items[i], items[i + 1]] = [items[i + 1], items[i]];
  }
  return kind;
};

const newScalar = (rng: Rng, prop: SchemaProperty, v: unknown): unknown => {
  switch (prop.dataType) {
    case 'uint32':
      return rng.next() < 0.6 ? Number(nudge(rng, BigInt(v as number), 0xffffffffn)) : rng.uint32();
    case 'uint64':
      return rng.next() < 0.6 ? nudge(rng, v as bigint, 2n ** 64n - 1n) : rng.uint64();
    case 'boolean':
      return !(v as boolean);
    case 'string':
      return rng.pick([randomName(rng, 8), `${v as string}A`, '', `${v as string}${v as string}`]);
    case 'bytes': {
      const b = Buffer.from(v as Buffer);
      const kind = rng.int(4);
      if (kind === 0 && b.length > 0) {
        b[rng.int(b.length)]! ^= 1 << rng.int(8);
        return b;
      }
      if (kind === 1) return rng.bytes(b.length);
      if (kind === 2) return b.subarray(0, Math.max(0, b.length - 1));
      return Buffer.concat([b, rng.bytes(1)]);
    }
    default:
      throw new Error(`no mutation for ${String(prop.dataType)}`);
  }
};

/** The block with one field of one of its judgeable assets changed, and a description of the change. */
export const mutateGenesis = (rng: Rng, block: Block): { block: Block; change: string } => {
  const candidates = block.assets.filter((a) => MUTABLE_ASSETS[a.module] !== undefined);
  const asset = rng.pick(candidates);
  const schema = MUTABLE_ASSETS[asset.module]!;
  const value = codec.decode<Record<string, unknown>>(schema, asset.data);
  const site = rng.pick(sitesOf(value, schema, asset.module));
  const current = (site.holder as Record<string | number, unknown>)[site.key];
  let change: string;
  if (site.prop.type === 'array') change = `${site.path}: ${mutateArray(rng, current as unknown[])}`;
  else if (site.prop.type === 'object') {
    // an object item or field: replace it by another item of its array, when there is one
    const siblings = Array.isArray(site.holder) ? site.holder : [];
    if (siblings.length > 1) (site.holder as unknown[])[site.key as number] = siblings[rng.int(siblings.length)];
    change = `${site.path}: replaced by a sibling`;
  } else {
    (site.holder as Record<string | number, unknown>)[site.key] = newScalar(rng, site.prop, current);
    change = `${site.path}: new value`;
  }
  const assets = block.assets.map((a) => (a === asset ? { module: a.module, data: codec.encode(schema, value) } : a));
  return { block: { ...block, header: { ...block.header, assetRoot: computeAssetRoot(assets) }, assets }, change };
};
