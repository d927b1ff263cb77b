export type { BaseInteroperabilityModule } from './base/module.js';
export { CHAIN_NAME_MAINCHAIN, mainchainID } from './genesis.js';
export { MainchainInteroperabilityModule } from './mainchain/index.js';
export { SidechainInteroperabilityModule } from './sidechain/index.js';
export { INTEROP_STORES, MODULE_NAME, STORE_PREFIX } from './stores.js';
