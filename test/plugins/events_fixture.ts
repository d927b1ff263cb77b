// Interoperability events of a block, encoded with klayr-framework's event schemas.
import '../helpers/klayr.js';
import { createRequire } from 'node:module';
import type { BlockEvent } from '../../src/lib/chain/events.js';
import type { CCMWithHeight } from '../../src/lib/interop/ccu_inbox_update.js';
import { klayrCodec } from '../helpers/klayr.js';
import type { Rng } from '../helpers/random.js';
import { OWN_CHAIN_ID, RECEIVING_CHAIN_ID, randomCCM } from './fixtures.js';

const require = createRequire(import.meta.url);

/** Send-success, processed (forwarded, applied) and unrelated events at `height`, and the CCMs the chain connector must keep of them (send-success first). */
export const klayrCodecEncodeEvents = (
  rng: Rng,
  height: number,
): { events: BlockEvent[]; expected: CCMWithHeight[] } => {
  const {
    ccmSendSuccessDataSchema,
  } = require('klayr-framework/dist-node/modules/interoperability/events/ccm_send_success.js');
  const {
    ccmProcessedEventSchema,
  } = require('klayr-framework/dist-node/modules/interoperability/events/ccm_processed.js');
  const strip = ({ height: _h, ...ccm }: CCMWithHeight) => ccm;
  const forwarded = randomCCM(rng, height, 10n);
  const applied = randomCCM(rng, height, 11n);
  const sent = randomCCM(rng, height, 12n);
  const elsewhere = {
    ...randomCCM(rng, height, 13n),
    receivingChainID: Buffer.from('04000099', 'hex'),
    sendingChainID: OWN_CHAIN_ID,
  };
  let index = 0;
  const event = (module: string, name: string, data: Buffer): BlockEvent => ({
    module,
    name,
    data,
    topics: [Buffer.alloc(32)],
    height,
    index: index++,
  });
  const events = [
    event(
      'interoperability',
      'ccmProcessed',
      klayrCodec.codec.encode(ccmProcessedEventSchema, { ccm: strip(forwarded), result: 1, code: 0 }),
    ),
    event(
      'interoperability',
      'ccmProcessed',
      klayrCodec.codec.encode(ccmProcessedEventSchema, { ccm: strip(applied), result: 0, code: 0 }),
    ),
    event('token', 'ccmSendSuccess', Buffer.alloc(3)),
    event(
      'interoperability',
      'ccmSendSuccess',
      klayrCodec.codec.encode(ccmSendSuccessDataSchema, { ccm: strip(sent) }),
    ),
    event(
      'interoperability',
      'ccmSendSuccess',
      klayrCodec.codec.encode(ccmSendSuccessDataSchema, { ccm: strip(elsewhere) }),
    ),
  ];
  return { events, expected: [sent, forwarded].filter((c) => c.receivingChainID.equals(RECEIVING_CHAIN_ID)) };
};
