// What @klayr/p2p's peer server refuses in any frame from an inbound peer (peer_server.js _handleIncomingPayload):
// anything but `#2` must be one JSON packet of the packet schema, without a forbidden or overlong event name, and an
// IP may send at most 10 `#disconnect` per second. A refusal terminates the socket and bans the IP.
import { CONTROL_MESSAGE_LIMIT, FORBIDDEN_SC_EVENTS, MAX_EVENT_NAME_LENGTH } from '../constants.js';
import { SC_PONG, isValidInboundPacket } from './sc_packet.js';

/** Counts `#disconnect` events per IP; `reset()` runs every second. */
export class DisconnectCounter {
  #counts = new Map<string, number>();

  /** The count for this IP including this one. */
  add(ip: string): number {
    const count = (this.#counts.get(ip) ?? 0) + 1;
    this.#counts.set(ip, count);
    return count;
  }

  reset(): void {
    this.#counts = new Map();
  }
}

/** undefined when the frame is acceptable, else why it is not. */
export const inboundFrameViolation = (text: string, ip: string, disconnects: DisconnectCounter): string | undefined => {
  if (text === SC_PONG) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
  if (!isValidInboundPacket(parsed)) return 'Error: Packet format is invalid.';
  const event = 'event' in parsed ? parsed.event : undefined;
  if (event !== undefined && (FORBIDDEN_SC_EVENTS.has(event) || event.length > MAX_EVENT_NAME_LENGTH))
    return 'InvalidPayloadError: Received invalid transactions';
  if (event === '#disconnect') {
    const count = disconnects.add(ip);
    if (count > CONTROL_MESSAGE_LIMIT)
      return `InvalidDisconnectEventError: Exhausted disconnected event: peer disconnected ${count} times above the limit of ${CONTROL_MESSAGE_LIMIT}`;
  }
  return undefined;
};
