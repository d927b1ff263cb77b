import { dataPathConfigFile } from './data_path_config.js';
import type { ApplicationConfig } from './types.js';

/**
 * The warning a start logs when rpc.allowedMethods is empty: as in Klayr Core, an empty list
 * refuses every method on every transport (IPC included, so the CLI's node commands too), and
 * Klayr Core's testnet and mainnet presets ship it empty. Undefined when some method is allowed.
 */
export const closedRpcWarning = (config: ApplicationConfig): string | undefined => {
  if ((config.rpc.allowedMethods ?? []).length > 0) return undefined;
  return (
    `rpc.allowedMethods is [] : every RPC method is refused (over ${config.rpc.modes.join(', ')}, the CLI's node commands included); ` +
    'set rpc.allowedMethods to ["*"] or a list of namespaces (e.g. ["system", "chain", "txpool"]) ' +
    `in a -c config file or in ${dataPathConfigFile(config.system.dataPath)}`
  );
};
