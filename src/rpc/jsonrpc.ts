/** JSON-RPC 2.0 envelope and the errors Klayr Core answers with. */
export type RequestID = number | string | null;

export interface JSONRPCError {
  code: number;
  message: string;
  data?: unknown;
}

export const INVALID_REQUEST = -32600;

export const MSG_EMPTY_REQUEST = 'Invalid invoke request.';
export const MSG_PARSE_FAILED = 'Invalid RPC request. Failed to parse request params.';
export const MSG_INVALID_FORMAT = 'Invalid RPC request. Invalid request format.';
export const MSG_DISABLED = 'Requested method or namespace is disabled in node config.';
export const MSG_EMPTY_BATCH = 'Invalid RPC request. Empty batch.';

/** Built as text: the hot path of every answer, without an intermediate envelope object. A finite number's JSON is its string form (about 100 ns less than JSON.stringify). */
export const successWithJSON = (id: RequestID, resultJSON: string): string =>
  `{"jsonrpc":"2.0","id":${typeof id === 'number' && Number.isFinite(id) ? id : JSON.stringify(id)},"result":${resultJSON}}`;

export const success = (id: RequestID, result: unknown): string => successWithJSON(id, JSON.stringify(result));

export const failure = (id: RequestID, code: number, message: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

export const invalidRequest = (id: RequestID, message: string): string => failure(id, INVALID_REQUEST, message);

export const notification = (method: string, params: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', method, params });
