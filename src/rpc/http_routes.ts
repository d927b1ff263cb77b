import type { FrontMetrics } from './metrics.js';

export interface HttpAnswer {
  status: string;
  contentType: string;
  body: string;
}

export const RPC_PATH = '/rpc';
export const WS_PATH = '/rpc-ws';

/**
 * Answers for every HTTP request except POST /rpc (which the server reads and dispatches):
 * GET /health, GET /metrics, 405 on /rpc with another method, 404 elsewhere (Klayr Core's texts).
 */
export const routeHttp = async (
  method: string,
  url: string,
  metrics: FrontMetrics | undefined,
  health: () => unknown,
): Promise<HttpAnswer | 'rpc'> => {
  const path = url.split('?')[0];
  if (path === RPC_PATH)
    return method === 'POST'
      ? 'rpc'
      : {
          status: '405 Method Not Allowed',
          contentType: 'application/json',
          body: `${method} is not allowed for the request.`,
        };
  if (method === 'GET' && path === '/health')
    return { status: '200 OK', contentType: 'application/json', body: JSON.stringify(await health()) };
  if (method === 'GET' && path === '/metrics' && metrics !== undefined)
    return { status: '200 OK', contentType: metrics.contentType, body: await metrics.text() };
  return { status: '404 Not Found', contentType: 'application/json', body: `${url} not found.` };
};
