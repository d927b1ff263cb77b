import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Klayr Core's pid file: klayr-commander's node commands read it to tell whether a node runs on the data path. */
export const controllerPidFile = (dataPath: string): string => join(dataPath, 'tmp', 'pids', 'controller.pid');

/**
 * Writes this process's pid to `<dataPath>/tmp/pids/controller.pid`, so that Klayr Core's own CLI
 * (`klayr-core system:node-info`, ...) reaches the node over IPC as it reaches Klayr Core; returns
 * the removal, which leaves a file another process has written since.
 */
export const writeControllerPid = (dataPath: string): (() => void) => {
  const file = controllerPidFile(dataPath);
  mkdirSync(join(dataPath, 'tmp', 'pids'), { recursive: true });
  writeFileSync(file, String(process.pid));
  return () => {
    try {
      if (readFileSync(file, 'utf8') === String(process.pid)) rmSync(file);
    } catch {
      // already gone
    }
  };
};
