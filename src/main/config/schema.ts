import type { SchemaProperty } from '../../lib/codec/index.js';
import { chainConnectorConfigSchema } from '../../plugins/chain_connector/config.js';
import { reportMisbehaviorConfigSchema } from '../../plugins/report_misbehavior/config.js';

const peer: SchemaProperty = {
  type: 'object',
  properties: { ip: { type: 'string', format: 'ipOrFQDN' }, port: { type: 'integer', minimum: 1, maximum: 65535 } },
};

/** Klayr Core's application config schema (klayr-framework applicationConfigSchema), with Kestrel's chainID length check. */
export const applicationConfigSchema: SchemaProperty = {
  type: 'object',
  required: ['system', 'rpc', 'network', 'modules', 'plugins', 'genesis'],
  additionalProperties: false,
  properties: {
    system: {
      type: 'object',
      required: [
        'version',
        'dataPath',
        'logLevel',
        'keepEventsForHeights',
        'keepInclusionProofsForHeights',
        'inclusionProofKeys',
        'backup',
      ],
      properties: {
        version: { type: 'string', format: 'version' },
        dataPath: { type: 'string', minLength: 1 },
        logLevel: { type: 'string', enum: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'none'] },
        keepEventsForHeights: { type: 'integer', minimum: -1 },
        keepInclusionProofsForHeights: { type: 'integer', minimum: -1 },
        // state tree keys, as lisk-db's StateDB.prove takes them: store prefix, substore prefix, SHA-256 of the store key
        inclusionProofKeys: {
          type: 'array',
          items: { type: 'string', format: 'hex', minLength: 76, maxLength: 76 },
          uniqueItems: true,
        },
        backup: { type: 'object', required: ['height'], properties: { height: { type: 'integer', minimum: 0 } } },
        enableMetrics: { type: 'boolean' },
      },
    },
    rpc: {
      type: 'object',
      required: ['modes', 'host', 'port'],
      properties: {
        modes: { type: 'array', items: { type: 'string', enum: ['ipc', 'ws', 'http'] }, uniqueItems: true },
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 1024, maximum: 65535 },
        allowedMethods: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        accessControlAllowOrigin: { type: 'string' },
        maxBodySize: { type: 'integer', minimum: 1024, maximum: 64 * 1024 * 1024 },
        threadNice: { type: 'integer', minimum: -20, maximum: 19 },
      },
    },
    legacy: {
      type: 'object',
      required: ['brackets'],
      properties: {
        sync: { type: 'boolean' },
        brackets: {
          type: 'array',
          items: {
            type: 'object',
            required: ['startHeight', 'snapshotHeight', 'snapshotBlockID'],
            properties: {
              startHeight: { type: 'integer', minimum: 0 },
              snapshotHeight: { type: 'integer', minimum: 0 },
              snapshotBlockID: { type: 'string', format: 'hex' },
            },
          },
        },
      },
    },
    network: {
      type: 'object',
      required: ['seedPeers'],
      properties: {
        version: { type: 'string', format: 'networkVersion' },
        port: { type: 'integer', minimum: 1, maximum: 65535 },
        host: { type: 'string', format: 'ip' },
        seedPeers: { type: 'array', items: peer },
        blacklistedIPs: { type: 'array', items: { type: 'string', format: 'ip' } },
        fixedPeers: { type: 'array', items: peer, maxItems: 4 },
        whitelistedPeers: { type: 'array', items: peer },
        maxOutboundConnections: { type: 'integer', minimum: 0 },
        maxInboundConnections: { type: 'integer', minimum: 0 },
        wsMaxPayload: { type: 'integer', maximum: 3048576 },
        advertiseAddress: { type: 'boolean' },
      },
    },
    transactionPool: {
      type: 'object',
      properties: {
        maxTransactions: { type: 'integer', minimum: 1 },
        maxTransactionsPerAccount: { type: 'integer', minimum: 1 },
        transactionExpiryTime: { type: 'integer', minimum: 60000 },
        minEntranceFeePriority: { type: 'string', format: 'uint64' },
        minReplacementFeeDifference: { type: 'string', format: 'uint64' },
      },
    },
    genesis: {
      type: 'object',
      required: ['block', 'blockTime', 'bftBatchSize', 'chainID', 'maxTransactionsSize'],
      additionalProperties: false,
      properties: {
        block: {
          type: 'object',
          oneOf: [
            { type: 'object', required: ['fromFile'] },
            { type: 'object', required: ['blob'] },
          ],
          properties: { fromFile: { type: 'string' }, blob: { type: 'string', format: 'hex' } },
        },
        blockTime: { type: 'number', minimum: 3, maximum: 2592000 },
        bftBatchSize: { type: 'integer', minimum: 1, maximum: 201 },
        chainID: { type: 'string', format: 'hex', minLength: 8, maxLength: 8 },
        maxTransactionsSize: { type: 'integer', minimum: 11264, maximum: 30720 },
        minimumCertifyHeight: { type: 'integer', minimum: 1 },
      },
    },
    generator: {
      type: 'object',
      required: ['keys'],
      properties: { keys: { type: 'object', properties: { fromFile: { type: 'string' } } } },
    },
    modules: {
      type: 'object',
      propertyNames: { pattern: '^[a-zA-Z][a-zA-Z0-9_]*$' },
      additionalProperties: { type: 'object' },
    },
    // chainConnector and reportMisbehavior: the configSchema of Klayr's plugin; other plugins' settings are accepted as they are (and reported unused)
    plugins: {
      type: 'object',
      properties: { chainConnector: chainConnectorConfigSchema, reportMisbehavior: reportMisbehaviorConfigSchema },
    },
  },
};
