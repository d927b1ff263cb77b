import { compileValidator } from '../../lib/codec/index.js';
import { moduleConfigProblems } from '../config/module_config.js';
import { applicationConfigSchema } from '../config/schema.js';
import type { ApplicationConfig } from '../config/types.js';

const validate = compileValidator(applicationConfigSchema);

/** Within module settings, a token ID of the old chain (16 hex digits, its chain ID first) becomes the successor's. */
const remapTokenIDs = (value: unknown, oldChainID: string, chainID: string): unknown => {
  if (typeof value === 'string')
    return /^[0-9a-f]{16}$/.test(value) && value.startsWith(oldChainID) ? `${chainID}${value.slice(8)}` : value;
  if (Array.isArray(value)) return value.map((v) => remapTokenIDs(v, oldChainID, chainID));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, remapTokenIDs(v, oldChainID, chainID)]));
  return value;
};

export interface SuccessorSettings {
  chainID: string;
  /** The successor's data path (never the old node's). */
  dataPath: string;
  /** The genesis block file, relative to the config file. */
  genesisFile: string;
  useInvalidBLSKey: boolean;
  /** Carry the old node's rpc, network, generator, transaction pool, system, module and plugin settings over (--auto-migrate-config); else Kestrel's defaults. */
  carry: boolean;
}

/**
 * The successor node's config: the old node's settings carried over (or only what the chain
 * needs), with the new chain ID and genesis block, no backup height, the old chain's token IDs
 * in module settings turned into the successor's. Checked against Klayr's config schema.
 */
export const successorConfig = (old: ApplicationConfig, settings: SuccessorSettings): Partial<ApplicationConfig> => {
  const modules = remapTokenIDs(
    settings.carry ? old.modules : {},
    old.genesis.chainID,
    settings.chainID,
  ) as ApplicationConfig['modules'];
  const pos = { ...(modules.pos ?? {}), ...(settings.useInvalidBLSKey ? { useInvalidBLSKey: true } : {}) };
  const config: Partial<ApplicationConfig> = {
    ...(settings.carry ? structuredClone(old) : {}),
    system: {
      ...(settings.carry ? structuredClone(old.system) : {}),
      dataPath: settings.dataPath,
      backup: { height: 0 },
    } as ApplicationConfig['system'],
    genesis: {
      ...(settings.carry ? old.genesis : {}),
      chainID: settings.chainID,
      block: { fromFile: settings.genesisFile },
    } as ApplicationConfig['genesis'],
    modules: Object.keys(pos).length > 0 ? { ...modules, pos } : modules,
  };
  return config;
};

/** The problems Klayr's config schema and the module config schemas find in a complete config. */
export const configProblems = (config: ApplicationConfig): string[] => {
  const problems = validate(config).map((i) => `config${i.dataPath}: ${i.message}`);
  return problems.length > 0 ? problems : moduleConfigProblems(config.modules, config.genesis.blockTime);
};
