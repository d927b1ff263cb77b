import { Command } from 'commander';
import type { NodeOptions } from '../flags.js';
import { addNodeFlags } from '../flags.js';

interface ListOptions extends NodeOptions {
  module?: string;
  info?: boolean;
}

/**
 * `kestrel endpoint:list [endpoint]`: the modules' endpoints of the running node's metadata, as
 * Klayr Core's: `--module` a pattern matched against module names, the argument a pattern matched
 * (case-insensitively) against endpoint names, names as `<module>_<endpoint>`.
 */
export const endpointListCommand = (): Command =>
  addNodeFlags(
    new Command('endpoint:list')
      .description('Lists registered endpoints.')
      .argument('[endpoint]', 'Endpoint name (a pattern, matched case-insensitively).')
      .option('-m, --module <module>', 'Parent module (a pattern).')
      .option('-i, --info', 'Prints additional info; Request and Response objects.'),
  ).action(async (endpoint: string | undefined, options: ListOptions) => {
    const pattern = (source: string, flags: string): RegExp => {
      try {
        return new RegExp(source, flags);
      } catch (e) {
        throw new Error(`"${source}" is not a valid pattern: ${(e as Error).message}`);
      }
    };
    const modulePattern = options.module === undefined ? undefined : pattern(options.module, '');
    const endpointPattern = endpoint === undefined ? undefined : pattern(endpoint, 'i');
    const [{ nodeModuleMetadata }, { printJSON, withNode }] = await Promise.all([
      import('../chain_json.js'),
      import('../node_client.js'),
    ]);
    const metadata = await withNode(options, nodeModuleMetadata);
    const listed = metadata
      .filter((m) => modulePattern === undefined || modulePattern.test(m.name))
      .flatMap((m) =>
        m.endpoints
          .filter((e) => endpointPattern === undefined || endpointPattern.test(e.name))
          .map((e) => ({ ...e, name: `${m.name}_${e.name}` })),
      );
    printJSON(options.info === true ? listed : listed.map((e) => e.name), options.pretty === true);
  });
