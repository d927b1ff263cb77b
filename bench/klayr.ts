// The baselines are the @klayr/* packages, loaded the same way the differential tests load them.
export { klayrChain, klayrCodec, klayrCrypto, klayrTransactions } from '../test/helpers/klayr.js';
