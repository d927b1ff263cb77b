import type { ValidationIssue } from '../lib/codec/errors.js';

/**
 * How Klayr Core answers a method its engine does not serve itself: the application's answer through the ABI
 * (klayr-framework 0.12.3 abi_handler.js query, engine.js registerNotFoundEndpoint) is always a JSON-RPC result.
 * An error becomes the result `{ error: { message } }`, a handler that returns nothing the string "{}", and a name
 * nothing serves the bus's error. Clients rely on it: Klayr Service reads `result.error` (pos_getStaker's
 * "Key ... does not exist.", interoperability_getMainchainID's "not registered to bus" on a mainchain).
 */
export const applicationError = (message: string): { error: { message: string } } => ({ error: { message } });

/** A handler's empty answer as the ABI passes it on: JSON.stringify(undefined ?? '{}'), parsed again. */
export const APPLICATION_EMPTY_RESULT = '{}';

/**
 * A name nothing serves: the application's own channel (namespace `app`) answers for its namespace, the bus for any
 * other (in_memory_channel.js invoke, bus.js invoke).
 */
export const notRegisteredMessage = (name: string): string => {
  const split = name.lastIndexOf('_');
  return name.slice(0, split) === 'app'
    ? `The action '${name.slice(split + 1)}' on module 'app' does not exist.`
    : `Request '${name}' is not registered to bus.`;
};

/**
 * One issue as @klayr/validator's KlayrvalidationError words it (errorFormatterMap): a missing property as
 * "Missing property, ...", the others as "Property '<path>' ...". Klayr leaves the path out of the keywords it has no
 * formatter for (minimum, maximum, minItems, ...); Kestrel names it there too, so every line says which field is wrong.
 */
const klayrIssue = (issue: ValidationIssue): string =>
  issue.keyword === 'required' ? `Missing property, ${issue.message}` : `Property '${issue.dataPath}' ${issue.message}`;

/** The message of the KlayrvalidationError a module's endpoint throws for params that fail its schema. */
export const klayrValidationMessage = (issues: readonly ValidationIssue[]): string =>
  `Klayr validator found ${issues.length} error[s]:\n${issues.map(klayrIssue).join('\n')}`;
