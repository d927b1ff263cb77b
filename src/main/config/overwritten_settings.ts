import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataPathConfigFile } from './data_path_config.js';
import type { NetworkName } from './networks.js';
import { NETWORKS, networkDir } from './networks.js';

type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

const isObject = (v: JSONValue | undefined): v is { [key: string]: JSONValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Dotted paths of the leaves (arrays count as one value) where `saved` has a value `network` does not have. */
const differingLeaves = (saved: JSONValue | undefined, network: JSONValue | undefined, path: string): string[] => {
  if (isObject(saved)) {
    return Object.keys(saved).flatMap((key) =>
      differingLeaves(saved[key], isObject(network) ? network[key] : undefined, path === '' ? key : `${path}.${key}`),
    );
  }
  return JSON.stringify(saved) === JSON.stringify(network) ? [] : [path];
};

/**
 * The settings of the config saved under the data path that `--overwrite-config` replaces with
 * the network's (Klayr Core replaces them silently): an edit made to the saved config is lost by
 * the overwrite, while a `-c` file is laid over the config on every start. Empty when nothing is
 * saved yet or the network is unknown.
 */
export const settingsOverwrittenByNetwork = (network: string, dataPath: string): string[] => {
  const file = dataPathConfigFile(dataPath);
  if (!(NETWORKS as readonly string[]).includes(network) || !existsSync(file)) return [];
  let saved: JSONValue;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as JSONValue;
  } catch {
    return [];
  }
  const bundled = JSON.parse(
    readFileSync(join(networkDir(network as NetworkName), 'config.json'), 'utf8'),
  ) as JSONValue;
  return differingLeaves(saved, bundled, '');
};
