import type { SchemaProperty } from '../../lib/codec/index.js';
import { compileValidator } from '../../lib/codec/index.js';

/** The interoperability module's MAX_CCM_SIZE, the largest maxCCUSize Klayr's plugin accepts. */
export const CCU_TOTAL_CCM_SIZE = 10240;

/** plugins.chainConnector, as @klayr/chain-connector-plugin 0.2.2's configSchema (names, bounds, required keys). */
export const chainConnectorConfigSchema = {
  $id: '/klayr/plugins/chainConnector/config',
  type: 'object',
  properties: {
    receivingChainIPCPath: { type: 'string', description: 'The IPC path of a receiving node' },
    receivingChainWsURL: { type: 'string', description: 'The WS url of a receiving node' },
    ccuFrequency: { type: 'integer', description: 'Number of blocks after which a CCU should be created' },
    encryptedPrivateKey: { type: 'string', description: 'Encrypted privateKey of the relayer' },
    ccuFee: { type: 'string', format: 'uint64', description: 'Fee to be paid for each CCU transaction' },
    isSaveCCU: {
      type: 'boolean',
      description: 'Flag for the user to either save or send a CCU on creation. Send is by default.',
    },
    maxCCUSize: {
      type: 'integer',
      description: 'Maximum size of CCU to be allowed',
      minimum: 1,
      maximum: CCU_TOTAL_CCM_SIZE,
    },
    ccuSaveLimit: { type: 'integer', description: 'Number of CCUs to save.', minimum: -1 },
    registrationHeight: {
      type: 'integer',
      description: 'Height at the time of registration on the receiving chain.',
      minimum: 1,
    },
    receivingChainID: { type: 'string', description: 'Chain ID of the receiving chain.' },
    noFeeHeight: { type: 'integer', description: 'Height until no fee should be charged for CCU.' },
  },
  required: ['encryptedPrivateKey', 'receivingChainID'],
} as const satisfies SchemaProperty;

export interface ChainConnectorConfig {
  receivingChainID: string;
  receivingChainWsURL?: string;
  receivingChainIPCPath?: string;
  encryptedPrivateKey: string;
  ccuFrequency: number;
  ccuFee: string;
  isSaveCCU: boolean;
  maxCCUSize: number;
  registrationHeight: number;
  ccuSaveLimit: number;
  noFeeHeight: number;
}

/** Klayr's configSchema defaults. */
export const CHAIN_CONNECTOR_DEFAULTS = {
  ccuFrequency: 1,
  isSaveCCU: false,
  ccuFee: '0',
  maxCCUSize: CCU_TOTAL_CCM_SIZE,
  registrationHeight: 1,
  ccuSaveLimit: 300,
  noFeeHeight: 0,
} as const;

const validate = compileValidator(chainConnectorConfigSchema);

/**
 * The plugin's settings over Klayr's defaults, refused with every problem's path when they break
 * Klayr's schema, and when Klayr's plugin would fail on load: a receiving chain ID that is not 4
 * bytes of hex or of another network, or no receiving node to connect to.
 */
export const chainConnectorConfig = (input: unknown, ownChainID: Buffer): ChainConnectorConfig => {
  const issues = validate(input);
  if (issues.length > 0)
    throw new Error(
      `Invalid plugins.chainConnector config:\n${issues.map((i) => `  - plugins.chainConnector${i.dataPath}: ${i.message}`).join('\n')}`,
    );
  const config = { ...CHAIN_CONNECTOR_DEFAULTS, ...(input as Partial<ChainConnectorConfig>) } as ChainConnectorConfig;
  if (!/^[0-9a-f]{8}$/i.test(config.receivingChainID))
    throw new Error(
      `plugins.chainConnector.receivingChainID must be a chain ID of 8 hex characters, got "${config.receivingChainID}"`,
    );
  if (Buffer.from(config.receivingChainID, 'hex')[0] !== ownChainID[0])
    throw new Error('Receiving Chain ID network does not match the sending chain network.');
  if (config.receivingChainWsURL === undefined && config.receivingChainIPCPath === undefined)
    throw new Error('plugins.chainConnector needs receivingChainWsURL or receivingChainIPCPath');
  return config;
};
