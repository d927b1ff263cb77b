// Load generator, run as a child process so it does not share the servers' event loop:
//   node load.js http|ws <url> <connections> <seconds> <body>
// prints {"requests": n, "rps": x, "p50": ms, "p99": ms}
import autocannon from 'autocannon';
import { WebSocket } from 'ws';

const [kind, url, connections, seconds, body] = process.argv.slice(2) as [string, string, string, string, string];

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const http = async (): Promise<void> => {
  const result = await autocannon({ url, method: 'POST', body, headers: { 'content-type': 'application/json' }, connections: Number(connections), duration: Number(seconds) });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`non-2xx ${result.non2xx}, errors ${result.errors}`);
  process.stdout.write(JSON.stringify({ requests: result.requests.total, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }));
};

/** N connections, each with one request in flight (like autocannon without pipelining). */
const ws = async (): Promise<void> => {
  const sockets = await Promise.all(
    Array.from({ length: Number(connections) }, () => new Promise<WebSocket>((resolve, reject) => {
      const s = new WebSocket(url);
      s.once('open', () => resolve(s));
      s.once('error', reject);
    })),
  );
  const latencies: number[] = [];
  const end = Date.now() + Number(seconds) * 1000;
  await Promise.all(
    sockets.map(
      (s) =>
        new Promise<void>((resolve) => {
          let sent = 0;
          const fire = (): void => {
            if (Date.now() >= end) {
              resolve();
              return;
            }
            sent = performance.now();
            s.send(body);
          };
          s.on('message', () => {
            latencies.push(performance.now() - sent);
            fire();
          });
          fire();
        }),
    ),
  );
  for (const s of sockets) s.terminate();
  latencies.sort((a, b) => a - b);
  process.stdout.write(JSON.stringify({ requests: latencies.length, rps: latencies.length / Number(seconds), p50: percentile(latencies, 50), p99: percentile(latencies, 99) }));
};

await (kind === 'http' ? http() : ws());
