export * from './schema.js';
export * from './transaction.js';
export * from './fee.js';
export * from './prepared.js';
