// A ThreadPool task for the pool's own tests.
import { getPriority } from 'node:os';

export type ThreadTaskPayload =
  | { op: 'double'; value: number }
  | { op: 'throw' }
  | { op: 'exit' }
  | { op: 'length'; bytes: Uint8Array }
  | { op: 'busy'; ms: number }
  | { op: 'nice' };

export default (payload: ThreadTaskPayload): number => {
  switch (payload.op) {
    case 'double':
      return payload.value * 2;
    case 'throw':
      throw new Error('the task refused');
    case 'exit':
      return process.exit(3);
    case 'length':
      return payload.bytes.length;
    case 'busy': {
      const until = performance.now() + payload.ms;
      while (performance.now() < until);
      return payload.ms;
    }
    case 'nice':
      return getPriority(0);
  }
};
