// Child process for the backup crash test: commits a few heights, then backs up the last one in
// small slices, printing `committed <n>` after each slice; the test kills it with SIGKILL meanwhile.
import { writeBackup } from '../../src/storage/backup.js';
import { commitFilledHeights } from './backup_state.js';
import { openState } from './state.js';

const dataPath = process.argv[2]!;
const db = openState(dataPath);
const { height, root } = commitFilledHeights(db, 3, 2000);
let slices = 0;
await writeBackup(
  dataPath,
  { dbs: db.dbs, height, blockID: Buffer.alloc(32, 1), stateRoot: root, chainID: Buffer.from('04000000', 'hex') },
  { entriesPerTurn: 20, onTurn: () => process.stdout.write(`committed ${++slices}\n`) },
);
process.stdout.write('backup completed\n');
