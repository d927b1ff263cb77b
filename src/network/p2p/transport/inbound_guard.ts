// What @klayr/p2p's peer server refuses in any frame from an inbound peer (peer_server.js _handleIncomingPayload):
// anything but `#2` must be one JSON packet of the packet schema, without a forbidden or overlong event name, and an
// IP may send at most 10 `#disconnect` per second. A refusal terminates the socket and bans the IP.
import { CONTROL_MESSAGE_LIMIT, FORBIDDEN_SC_EVENTS, MAX_EVENT_NAME_LENGTH } from '../constants.js';
import { isValidInboundPacket, SC_PONG } from './sc_packet.js';
import { FrameViolation } from './sc_socket.js';

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

/** Returns the frame decoded when it is acceptable, else throws a FrameViolation saying why. */
export const guardInboundFrame = (text: string, ip: string, disconnects: DisconnectCounter): unknown => {
  if (text === SC_PONG) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new FrameViolation(`${(error as Error).name}: ${(error as Error).message}`);
  }
  if (!isValidInboundPacket(parsed)) throw new FrameViolation('Error: Packet format is invalid.');
  const event = 'event' in parsed ? parsed.event : undefined;
  if (event !== undefined && (FORBIDDEN_SC_EVENTS.has(event) || event.length > MAX_EVENT_NAME_LENGTH))
    throw new FrameViolation('InvalidPayloadError: Received invalid transactions');
  if (event === '#disconnect') {
    const count = disconnects.add(ip);
    if (count > CONTROL_MESSAGE_LIMIT)
      throw new FrameViolation(
        `InvalidDisconnectEventError: Exhausted disconnected event: peer disconnected ${count} times above the limit of ${CONTROL_MESSAGE_LIMIT}`,
      );
  }
  return parsed;
};
