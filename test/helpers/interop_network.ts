import type { NetworkCommandProcess } from './network_command.js';
import { startNetworkCommand } from './network_command.js';

export { nodePids, processAlive } from './network_command.js';
export type InteropNetworkProcess = NetworkCommandProcess;

/** A `kestrel network:interop` in a child process. */
export const startInteropNetwork = (
  dataPath: string,
  mainchainPort: number,
  sidechainPort: number,
  ...args: string[]
): InteropNetworkProcess =>
  startNetworkCommand(
    'network:interop',
    '-d',
    dataPath,
    '--mainchain-port',
    String(mainchainPort),
    '--sidechain-port',
    String(sidechainPort),
    ...args,
  );
