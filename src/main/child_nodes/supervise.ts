import type { ChainExit, ChainProcess } from './process.js';

export interface Supervision {
  /** The started nodes. */
  nodes: readonly ChainProcess[];
  /** The command's start-up work (connect, report); the nodes run on after it until a stop or an exit. */
  startUp: () => Promise<void>;
  /** Resolves with the signal's name when the command is asked to stop (SIGINT/SIGTERM). */
  stopRequested: Promise<string>;
  /** How the stop line names the nodes: "both nodes", "all 3 nodes". */
  nodesText: string;
  /** The signal each node gets (either is a node's clean stop), and its time to exit before SIGKILL. */
  signal: 'SIGINT' | 'SIGTERM';
  graceMs: number;
  progress: (line: string) => void;
  /** Runs once, when the run ends and before the nodes are stopped: stop reports, close clients. */
  onEnd: () => Promise<void>;
}

export const exitText = ({ code, signal }: ChainExit): string =>
  signal !== null ? `signal ${signal}` : `exit code ${code}`;

type Ending =
  | { kind: 'stop'; signal: string }
  | { kind: 'exit'; node: ChainProcess; exit: ChainExit }
  | { kind: 'failed'; error: Error };

/**
 * Runs the start-up, then waits for a stop request, a node's exit or a failed start-up, whichever
 * comes first. Every node is then stopped cleanly (each reported); a node's exit or a failure is an
 * error, which names the node and the end of its log.
 */
export const superviseNodes = async (s: Supervision): Promise<void> => {
  const unexpectedExit = Promise.race(s.nodes.map((node) => node.exited.then((exit) => ({ node, exit }))));
  const started = s.startUp();
  const ending: Ending = await Promise.race([
    s.stopRequested.then((signal): Ending => ({ kind: 'stop', signal })),
    unexpectedExit.then(({ node, exit }): Ending => ({ kind: 'exit', node, exit })),
    started.then(
      () => new Promise<never>(() => undefined),
      (error: Error): Ending => ({ kind: 'failed', error }),
    ),
  ]);
  started.catch(() => undefined); // a start-up cut short by the stop fails as the nodes go
  if (ending.kind === 'stop') s.progress(`${ending.signal}: stopping ${s.nodesText}`);
  await s.onEnd();
  const exits = await Promise.all(s.nodes.map((node) => node.stop(s.graceMs, s.signal)));
  for (const [i, node] of s.nodes.entries()) s.progress(`${node.name} stopped (${exitText(exits[i] as ChainExit)})`);
  if (ending.kind === 'exit')
    throw new Error(
      `The ${ending.node.name} exited (${exitText(ending.exit)}). The end of its log (${ending.node.logFile}):\n${ending.node.logTail(15)}`,
    );
  if (ending.kind === 'failed') throw ending.error;
};
