import type { BlockEvent } from '../../lib/chain/events.js';
import { decodeEvent } from '../../lib/chain/events.js';
import type { CompiledSchema, Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { KestrelDatabases } from '../../storage/database.js';
import { removeHeightsBelow } from '../../storage/prune.js';
import { TABLES, tableHeightKey } from '../../storage/tables.js';

const eventsSchema = {
  $id: '/kestrel/events',
  type: 'object',
  required: ['events'],
  properties: { events: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } } },
} as const satisfies Schema;
const eventsCodec: CompiledSchema<{ events: Buffer[] }> = compile<{ events: Buffer[] }>(eventsSchema);

const eventsKey = (height: number): Buffer => tableHeightKey(TABLES.events, height);

/** A block's events by height in the `events` database, written inside the block's commit. */
export class EventStore {
  constructor(private readonly dbs: KestrelDatabases) {}

  /** A block's events, as encoded (ExecutedBlock.encodedEvents). */
  save(dbs: KestrelDatabases, height: number, encodings: readonly Buffer[]): void {
    dbs.events.putSync(eventsKey(height), eventsCodec.encode({ events: encodings as Buffer[] }));
  }

  /** Drops the events of every height below `height` (pruning); call inside a commit transaction. */
  removeBelow(dbs: KestrelDatabases, height: number): void {
    removeHeightsBelow(dbs.events, TABLES.events, height);
  }

  /** Drops one height's events (a deleted block); call inside its write transaction. */
  remove(dbs: KestrelDatabases, height: number): void {
    dbs.events.removeSync(eventsKey(height));
  }

  at(height: number): BlockEvent[] {
    const raw = this.dbs.events.get(eventsKey(height));
    return raw === undefined ? [] : eventsCodec.decode(raw).events.map(decodeEvent);
  }
}
