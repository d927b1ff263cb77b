// SocketCluster 14 packets (sc-formatter): text frames `#1` (ping from the server) and `#2` (pong from the client),
// otherwise JSON: an event `{event, data?, cid?}` or a response `{rid, data?}` / `{rid, error}`.

export const SC_PING = '#1';
export const SC_PONG = '#2';

export interface ScEventPacket {
  readonly event: string;
  readonly data?: unknown;
  readonly cid?: number;
}

export interface ScResponsePacket {
  readonly rid: number;
  readonly data?: unknown;
  readonly error?: unknown;
}

export type ScPacket = ScEventPacket | ScResponsePacket;

const validJSONStart = /^[ \n\r\t]*[{[]/;

/**
 * Decodes a frame as sc-formatter does: `#1`/`#2` and text that does not open a JSON object or array stay strings
 * (SocketCluster treats them as raw messages), so does JSON that fails to parse.
 */
export const decodeFrame = (text: string): unknown => {
  if (text === SC_PING || text === SC_PONG || !validJSONStart.test(text)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const packetProperties: Readonly<Record<string, (v: unknown) => boolean>> = {
  event: (v) => typeof v === 'string',
  cid: (v) => typeof v === 'number' && Number.isInteger(v),
  rid: (v) => typeof v === 'number' && Number.isInteger(v),
  data: isObject,
  error: isObject,
};

/**
 * @klayr/p2p's packetSchema (utils/schemas.js, additionalProperties false): every frame a peer sends to the server,
 * other than `#2`, must be one JSON object with only these properties, each of its type.
 */
export const isValidInboundPacket = (parsed: unknown): parsed is ScPacket => {
  if (!isObject(parsed)) return false;
  for (const [key, value] of Object.entries(parsed)) {
    const check = packetProperties[key];
    if (check === undefined || !check(value)) return false;
  }
  return true;
};

/** The payload of `remote-message` (protocolMessageSchema): `{event: string, data?: string}`, nothing else. */
export const isProtocolMessage = (v: unknown): v is { event: string; data?: string } =>
  isObject(v) &&
  typeof v.event === 'string' &&
  (v.data === undefined || typeof v.data === 'string') &&
  Object.keys(v).every((k) => k === 'event' || k === 'data');

/** The payload of `rpc-request` (rpcRequestSchema): `{procedure: string, data?: string}`, nothing else. */
export const isRpcRequest = (v: unknown): v is { procedure: string; data?: string } =>
  isObject(v) &&
  typeof v.procedure === 'string' &&
  (v.data === undefined || typeof v.data === 'string') &&
  Object.keys(v).every((k) => k === 'procedure' || k === 'data');

/** An error as sc-errors dehydrates it: `{message, ...own enumerable properties}`. */
export const dehydrateError = (error: Error): Record<string, unknown> => {
  const out: Record<string, unknown> = { message: error.message };
  for (const key of Object.keys(error)) out[key] = (error as unknown as Record<string, unknown>)[key];
  return out;
};

/** A wire error back into an Error (sc-errors hydrateError). */
export const hydrateError = (error: unknown): Error => {
  if (isObject(error)) {
    const hydrated = new Error(typeof error.message === 'string' ? error.message : 'Invalid error message format');
    if (typeof error.name === 'string') hydrated.name = error.name;
    return hydrated;
  }
  return new Error(String(error));
};
