// A process that starts a devnet node (HTTP and WS in the RPC front thread) and ends without stopping it:
// `exit` calls process.exit(3), `throw` throws an uncaught error. Prints 'started' once the node runs.
import { pino } from 'pino';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { localP2P } from './local_p2p.js';
import { freePort } from './ports.js';
import { tempDataPath } from './state.js';

const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
config.rpc.modes = ['http', 'ws'];
delete config.generator;
const node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
await node.start();
process.stdout.write('started\n');
if (process.argv[2] === 'throw')
  setImmediate(() => {
    throw new Error('an uncaught error with the node running');
  });
else process.exit(3);
