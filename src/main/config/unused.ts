import type { SchemaProperty } from '../../lib/codec/index.js';
import { applicationModules } from '../modules.js';
import { applicationConfigSchema } from './schema.js';
import type { ApplicationConfig } from './types.js';

/** A key the config schema accepts (Klayr Core's) that Kestrel does not act on yet. */
export interface UnusedConfigKey {
  key: string;
  reason: string;
}

/** The plugins Kestrel has (src/plugins): their config keys are read, not reported. */
const PLUGINS_RUN = ['chainConnector', 'reportMisbehavior'];

/** Every key of the config that is set and that Kestrel would ignore, with why. */
export const unusedConfigKeys = (config: ApplicationConfig): UnusedConfigKey[] => {
  const unused: UnusedConfigKey[] = [];
  for (const name of Object.keys(config.plugins))
    if (!PLUGINS_RUN.includes(name))
      unused.push({
        key: `plugins.${name}`,
        reason: 'Kestrel runs only the chainConnector and reportMisbehavior plugins',
      });
  if ((config.plugins.reportMisbehavior?.defaultPassword ?? '') !== '')
    unused.push({
      key: 'plugins.reportMisbehavior.defaultPassword',
      reason: "Klayr's reportMisbehavior plugin reads it nowhere either: reportMisbehavior_authorize enables reporting",
    });
  if (config.rpc.threadNice !== undefined && !config.rpc.modes.some((mode) => mode === 'http' || mode === 'ws'))
    unused.push({
      key: 'rpc.threadNice',
      reason: 'it sets the priority of the HTTP and WS thread, which runs only with rpc.modes "http" or "ws"',
    });
  unused.push(...unknownSectionKeys(config));
  const modules = applicationModules(config);
  for (const [name, settings] of Object.entries(config.modules)) {
    const module = modules.find((m) => m.name === name);
    if (module === undefined) {
      unused.push({ key: `modules.${name}`, reason: `Kestrel has no module "${name}"` });
      continue;
    }
    for (const key of Object.keys(settings)) {
      if (module.configKeys?.includes(key) !== true)
        unused.push({ key: `modules.${name}.${key}`, reason: `Kestrel's ${name} module does not read this setting` });
    }
  }
  return unused;
};

/** Sections whose keys the schema lists (modules' and plugins' settings are checked above, by module and plugin). */
const LISTED_SECTIONS = ['system', 'rpc', 'network', 'transactionPool', 'generator', 'legacy'];

/**
 * Keys of a section that no setting has (a typo such as `network.seedpeers`): the schema lets them through, as
 * Klayr Core's does, and nothing reads them.
 */
const unknownSectionKeys = (config: ApplicationConfig): UnusedConfigKey[] => {
  const sections = (applicationConfigSchema.properties ?? {}) as Record<string, SchemaProperty>;
  const unknown: UnusedConfigKey[] = [];
  for (const section of LISTED_SECTIONS) {
    const known = sections[section]?.properties;
    const values = (config as unknown as Record<string, unknown>)[section];
    if (known === undefined || typeof values !== 'object' || values === null) continue;
    for (const key of Object.keys(values))
      if (!(key in known))
        unknown.push({ key: `${section}.${key}`, reason: `no ${section} setting has this name (a typo?)` });
  }
  return unknown;
};
