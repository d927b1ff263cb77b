import type { Logger } from 'pino';

/**
 * The Node.js flags a node runs with (the `kestrel` command's shebang, `npm start`, and the nodes Kestrel
 * starts itself). A young generation of 64 MB semi-spaces instead of 16: block synchronization allocates
 * fast, and with the default a synchronization of 2,000 blocks ran about 630 scavenges (2.7-2.9 s of the
 * main thread) against about 175 (1.4-1.5 s) with it; bench/README.md has the runs. About 100 MB more memory.
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

const flagName = (flag: string): string => flag.split('=')[0] as string;

/** The flags of NODE_FLAGS this process was started without (on its command line or in NODE_OPTIONS). */
export const missingNodeFlags = (
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): string[] => {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map(flagName);
  return NODE_FLAGS.filter((flag) => !given.includes(flagName(flag)));
};

/** Says at start when the node runs without Kestrel's Node.js flags (started as `node dist/src/main/cli.js`, say). */
export const logMissingNodeFlags = (logger: Logger): void => {
  const missing = missingNodeFlags();
  if (missing.length > 0)
    logger.info(
      { missing },
      `Node.js started without ${missing.join(' ')}: block synchronization spends about twice as long in garbage collection (the kestrel command and npm start set it; or add it to NODE_OPTIONS)`,
    );
};
