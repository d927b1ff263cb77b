import type { HttpWsOptions, RunningHttpWs } from './http_ws_options.js';
import { startNodeHttpWs } from './server_node.js';
import { loadUWS, startUWS } from './server_uws.js';

/** Which server serves HTTP and WS: 'auto' uses uWebSockets.js and falls back to node:http + ws when its binary cannot load. */
export type HttpWsEngine = 'auto' | 'uws' | 'node';

/** Starts the HTTP/WS server on `engine`; `warn` is told when 'auto' falls back to node:http. */
export const startHttpWs = async (
  settings: HttpWsOptions,
  engine: HttpWsEngine,
  warn: (message: string) => void,
): Promise<RunningHttpWs> => {
  const uws = engine === 'node' ? undefined : loadUWS();
  if (uws === undefined && engine === 'uws') throw new Error('uWebSockets.js cannot be loaded on this platform');
  if (uws === undefined && engine === 'auto')
    warn('uWebSockets.js could not be loaded: serving HTTP and WS with node:http + ws (slower)');
  return uws !== undefined ? startUWS(uws, settings) : startNodeHttpWs(settings);
};
