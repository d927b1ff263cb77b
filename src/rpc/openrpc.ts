import type { EndpointRegistry } from './registry.js';

export const OPENRPC_METHOD = 'rpc.discover';

/** An OpenRPC 1.2.6 document generated from the live registry (only the methods this node allows). */
export const openRPCDocument = (
  registry: EndpointRegistry,
  version: string,
  isAllowed: (name: string) => boolean,
): Record<string, unknown> => ({
  openrpc: '1.2.6',
  info: { title: 'Kestrel JSON-RPC', version },
  methods: registry
    .list()
    .filter((e) => isAllowed(e.name))
    .map((e) => ({
      name: e.name,
      ...(e.description !== undefined ? { description: e.description } : {}),
      paramStructure: 'by-name',
      params: Object.entries(e.params?.properties ?? {}).map(([name, schema]) => ({
        name,
        required: (e.params?.required ?? []).includes(name),
        schema,
      })),
      result: { name: 'result', schema: e.result ?? {} },
    })),
});
