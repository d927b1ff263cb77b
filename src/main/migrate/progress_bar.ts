import type { Progress, ProgressStep } from '../../migration/progress.js';

const WIDTH = 30;

/**
 * A progress bar per step on stderr (as `kestrel hash-onion` draws its own): redrawn in place on
 * a terminal at most every 100 ms; elsewhere (a log file, a pipe) one line when each step ends.
 */
export const progressBar = (stream: NodeJS.WriteStream = process.stderr): Progress => ({
  step(label: string, total?: number): ProgressStep {
    const began = Date.now();
    let done = 0;
    let drawn = 0;
    const draw = (): void => {
      const share = total === undefined || total === 0 ? 1 : Math.min(1, done / total);
      stream.write(
        `\r${label} [${'#'.repeat(Math.round(share * WIDTH)).padEnd(WIDTH, '.')}] ${(share * 100).toFixed(0).padStart(3)}% ${done}/${total ?? '?'}`,
      );
    };
    return {
      tick(units = 1) {
        done += units;
        if (stream.isTTY === true && Date.now() - drawn >= 100) {
          drawn = Date.now();
          draw();
        }
      },
      done() {
        if (stream.isTTY === true) {
          draw();
          stream.write(` ${((Date.now() - began) / 1000).toFixed(1)} s\n`);
        } else {
          stream.write(
            `${label}: ${done}${total === undefined ? '' : `/${total}`} done in ${((Date.now() - began) / 1000).toFixed(1)} s\n`,
          );
        }
      },
    };
  },
});
