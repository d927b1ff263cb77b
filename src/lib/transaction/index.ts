export * from './fee.js';
export * from './prepared.js';
export * from './schema.js';
export * from './transaction.js';
