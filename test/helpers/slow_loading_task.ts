// A ThreadPool task module that takes a while to load (as one loading lmdb's addon does) and then writes
// the file named by KESTREL_TEST_LOADED_MARKER: the tests see whether its thread was let finish loading.
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

await sleep(300);
const marker = process.env.KESTREL_TEST_LOADED_MARKER;
if (marker !== undefined) writeFileSync(marker, 'loaded');

export default (n: number): number => n;
