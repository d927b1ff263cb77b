// The benchmark client on a thread of its own, so that the server under test has the main thread to itself.
// Commands: {connect: {host, port, from}}, {send: count} (fire `count` message frames), {requests: count}
// (round trips with 32 in flight; answers {rate}).
import { parentPort } from 'node:worker_threads';
import { type BenchClient, connectBenchClient } from './p2p_client.js';

const IN_FLIGHT = 32;
// {transactionIds: [32 bytes]} as the codec writes it: 34 bytes
const announcement = Buffer.concat([Buffer.from([0x0a, 0x20]), Buffer.alloc(32, 7)]).toString('base64');
const messageFrame = `{"event":"remote-message","data":{"event":"postTransactionsAnnouncement","data":"${announcement}"}}`;

let client: BenchClient | undefined;

const requests = async (c: BenchClient, count: number): Promise<number> => {
  let issued = 0;
  const started = performance.now();
  const lane = async (): Promise<void> => {
    while (issued < count) {
      issued += 1;
      await c.request('getTransactions', announcement);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return (count * 1000) / (performance.now() - started);
};

parentPort?.on(
  'message',
  async (command: {
    connect?: { host: string; port: number; from: string };
    send?: number;
    requests?: number;
    close?: true;
  }) => {
    if (command.connect !== undefined) {
      client = await connectBenchClient(command.connect.host, command.connect.port, command.connect.from);
      parentPort?.postMessage({ connected: true });
    } else if (command.send !== undefined && client !== undefined) {
      for (let i = 0; i < command.send; i++) client.send(messageFrame);
    } else if (command.requests !== undefined && client !== undefined) {
      parentPort?.postMessage({ rate: await requests(client, command.requests) });
    } else if (command.close === true) {
      client?.close();
      parentPort?.postMessage({ closed: true });
    }
  },
);
