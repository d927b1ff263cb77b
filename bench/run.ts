import { ccuBench } from './ccu.bench.js';
import { ccuRpcLatencyBench } from './ccu_rpc_latency.js';
import { chainBench } from './chain.bench.js';
import { codecBench } from './codec.bench.js';
import { cryptoBench } from './crypto.bench.js';
import { executionBench } from './execution.bench.js';
import { genesisBench } from './genesis.bench.js';
import { onionBench } from './onion.bench.js';
import { p2pThroughputBench } from './p2p_throughput.js';
import { poolBench } from './pool.bench.js';
import { propagationBench } from './propagation.bench.js';
import { rpcBench } from './rpc.bench.js';
import { rpcBalanceBench } from './rpc_balance.bench.js';
import { rpcFrontBench } from './rpc_front.bench.js';
import { startTimeBench } from './start_time.js';
import { stateBench } from './state.bench.js';
import { syncBench } from './sync.bench.js';
import { treeWritesBench } from './tree_writes.bench.js';

const suites: Record<string, () => Promise<unknown>> = {
  codec: codecBench,
  crypto: cryptoBench,
  state: stateBench,
  rpc: rpcBench,
  'rpc-balance': rpcBalanceBench,
  'rpc-front': rpcFrontBench,
  pool: poolBench,
  chain: chainBench,
  execute: executionBench,
  onion: onionBench,
  genesis: genesisBench,
  ccu: ccuBench,
  'ccu-rpc': ccuRpcLatencyBench,
  p2p: p2pThroughputBench,
  'start-time': startTimeBench,
  sync: syncBench,
  'tree-writes': treeWritesBench,
  propagation: propagationBench,
};

const wanted = process.argv.slice(2);
for (const name of wanted)
  if (!(name in suites)) throw new Error(`Unknown bench suite "${name}". Suites: ${Object.keys(suites).join(', ')}`);
for (const [name, run] of Object.entries(suites)) {
  if (wanted.length === 0 || wanted.includes(name)) await run();
}
