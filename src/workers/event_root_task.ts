// ThreadPool task: a block's event root from its packed events (event_root_input.ts).
import { unpackEventRootInput } from '../lib/chain/event_root_input.js';
import { eventRootOf } from '../lib/chain/events.js';

export default (packed: Uint8Array): Uint8Array => {
  const { events, encodings } = unpackEventRootInput(Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength));
  // a copy of its own: a view posted back would carry the hasher's whole memory with it
  return new Uint8Array(eventRootOf(events, encodings));
};
