import type { Schema } from '../../lib/codec/index.js';

/** A channel's inbox or outbox: the append-only merkle tree state (appendPath, size, root). */
const merkleTreeSchema = (fieldNumber: number) =>
  ({
    type: 'object',
    fieldNumber,
    required: ['appendPath', 'size', 'root'],
    properties: {
      appendPath: { type: 'array', items: { dataType: 'bytes', minLength: 32, maxLength: 32 }, fieldNumber: 1 },
      size: { dataType: 'uint32', fieldNumber: 2 },
      root: { dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber: 3 },
    },
  }) as const;

/** The mainchain interoperability genesis asset (klayr-framework genesisInteroperabilitySchema). */
export const genesisInteroperabilitySchema = {
  $id: '/interoperability/module/genesis',
  type: 'object',
  required: ['ownChainName', 'ownChainNonce', 'chainInfos', 'terminatedStateAccounts', 'terminatedOutboxAccounts'],
  properties: {
    ownChainName: {
      dataType: 'string',
      maxLength: 32,
      fieldNumber: 1,
    },
    ownChainNonce: {
      dataType: 'uint64',
      fieldNumber: 2,
    },
    chainInfos: {
      type: 'array',
      fieldNumber: 3,
      items: {
        type: 'object',
        required: ['chainID', 'chainData', 'channelData', 'chainValidators'],
        properties: {
          chainID: {
            dataType: 'bytes',
            minLength: 4,
            maxLength: 4,
            fieldNumber: 1,
          },
          chainData: {
            $id: '/modules/interoperability/chainData',
            type: 'object',
            required: ['name', 'lastCertificate', 'status'],
            properties: {
              name: {
                dataType: 'string',
                minLength: 1,
                maxLength: 32,
                fieldNumber: 1,
              },
              lastCertificate: {
                type: 'object',
                fieldNumber: 2,
                required: ['height', 'timestamp', 'stateRoot', 'validatorsHash'],
                properties: {
                  height: {
                    dataType: 'uint32',
                    fieldNumber: 1,
                  },
                  timestamp: {
                    dataType: 'uint32',
                    fieldNumber: 2,
                  },
                  stateRoot: {
                    dataType: 'bytes',
                    minLength: 32,
                    maxLength: 32,
                    fieldNumber: 3,
                  },
                  validatorsHash: {
                    dataType: 'bytes',
                    minLength: 32,
                    maxLength: 32,
                    fieldNumber: 4,
                  },
                },
              },
              status: {
                dataType: 'uint32',
                fieldNumber: 3,
              },
            },
            fieldNumber: 2,
          },
          channelData: {
            $id: '/modules/interoperability/channel',
            type: 'object',
            required: ['inbox', 'outbox', 'partnerChainOutboxRoot', 'messageFeeTokenID', 'minReturnFeePerByte'],
            properties: {
              inbox: merkleTreeSchema(1),
              outbox: merkleTreeSchema(2),
              partnerChainOutboxRoot: {
                dataType: 'bytes',
                minLength: 32,
                maxLength: 32,
                fieldNumber: 3,
              },
              messageFeeTokenID: {
                dataType: 'bytes',
                minLength: 8,
                maxLength: 8,
                fieldNumber: 4,
              },
              minReturnFeePerByte: {
                dataType: 'uint64',
                fieldNumber: 5,
              },
            },
            fieldNumber: 3,
          },
          chainValidators: {
            $id: '/modules/interoperability/chainValidators',
            type: 'object',
            required: ['activeValidators', 'certificateThreshold'],
            properties: {
              activeValidators: {
                type: 'array',
                fieldNumber: 1,
                minItems: 1,
                maxItems: 199,
                items: {
                  type: 'object',
                  required: ['blsKey', 'bftWeight'],
                  properties: {
                    blsKey: {
                      dataType: 'bytes',
                      minLength: 48,
                      maxLength: 48,
                      fieldNumber: 1,
                    },
                    bftWeight: {
                      dataType: 'uint64',
                      fieldNumber: 2,
                    },
                  },
                },
              },
              certificateThreshold: {
                dataType: 'uint64',
                fieldNumber: 2,
              },
            },
            fieldNumber: 4,
          },
        },
      },
    },
    terminatedStateAccounts: {
      type: 'array',
      fieldNumber: 4,
      items: {
        type: 'object',
        required: ['chainID', 'terminatedStateAccount'],
        properties: {
          chainID: {
            dataType: 'bytes',
            minLength: 4,
            maxLength: 4,
            fieldNumber: 1,
          },
          terminatedStateAccount: {
            $id: '/modules/interoperability/terminatedState',
            type: 'object',
            required: ['stateRoot', 'mainchainStateRoot', 'initialized'],
            properties: {
              stateRoot: {
                dataType: 'bytes',
                minLength: 32,
                maxLength: 32,
                fieldNumber: 1,
              },
              mainchainStateRoot: {
                dataType: 'bytes',
                minLength: 32,
                maxLength: 32,
                fieldNumber: 2,
              },
              initialized: {
                dataType: 'boolean',
                fieldNumber: 3,
              },
            },
            fieldNumber: 2,
          },
        },
      },
    },
    terminatedOutboxAccounts: {
      type: 'array',
      fieldNumber: 5,
      items: {
        type: 'object',
        required: ['chainID', 'terminatedOutboxAccount'],
        properties: {
          chainID: {
            dataType: 'bytes',
            minLength: 4,
            maxLength: 4,
            fieldNumber: 1,
          },
          terminatedOutboxAccount: {
            $id: '/modules/interoperability/terminatedOutbox',
            type: 'object',
            required: ['outboxRoot', 'outboxSize', 'partnerChainInboxSize'],
            properties: {
              outboxRoot: {
                dataType: 'bytes',
                minLength: 32,
                maxLength: 32,
                fieldNumber: 1,
              },
              outboxSize: {
                dataType: 'uint32',
                fieldNumber: 2,
              },
              partnerChainInboxSize: {
                dataType: 'uint32',
                fieldNumber: 3,
              },
            },
            fieldNumber: 2,
          },
        },
      },
    },
  },
} as const satisfies Schema;

export const ownChainAccountSchema = {
  $id: '/modules/interoperability/ownChainAccount',
  type: 'object',
  required: ['name', 'chainID', 'nonce'],
  properties: {
    name: {
      dataType: 'string',
      minLength: 1,
      maxLength: 32,
      fieldNumber: 1,
    },
    chainID: {
      dataType: 'bytes',
      minLength: 4,
      maxLength: 4,
      fieldNumber: 2,
    },
    nonce: {
      dataType: 'uint64',
      fieldNumber: 3,
    },
  },
} as const satisfies Schema;

export const registeredNamesSchema = {
  $id: '/modules/interoperability/chainId',
  type: 'object',
  required: ['chainID'],
  properties: {
    chainID: {
      dataType: 'bytes',
      minLength: 4,
      maxLength: 4,
      fieldNumber: 1,
    },
  },
} as const satisfies Schema;

const chainInfo = genesisInteroperabilitySchema.properties.chainInfos.items.properties;
/** A store schema embedded in the genesis asset, as the store itself has it: without the field number of the embedding. */
const standalone = <S extends { fieldNumber: number }>({ fieldNumber: _, ...schema }: S): Omit<S, 'fieldNumber'> =>
  schema;
/** Store schemas: the genesis asset embeds Klayr's store schemas as they are. */
export const chainAccountSchema = standalone(chainInfo.chainData);
export const channelDataSchema = standalone(chainInfo.channelData);
export const chainValidatorsSchema = standalone(chainInfo.chainValidators);
export const terminatedStateSchema = standalone(
  genesisInteroperabilitySchema.properties.terminatedStateAccounts.items.properties.terminatedStateAccount,
);
export const terminatedOutboxSchema = standalone(
  genesisInteroperabilitySchema.properties.terminatedOutboxAccounts.items.properties.terminatedOutboxAccount,
);

export { ccmSchema } from '../../lib/interop/schemas.js';
