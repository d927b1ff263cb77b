import type { Socket } from 'node:net';

const IPV4_MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/**
 * The IP an inbound peer is known by. A server bound to a dual-stack host (`::`) sees an IPv4 peer as the mapped
 * `::ffff:a.b.c.d`; it is taken as `a.b.c.d`, so the peer passes the IPv4 handshake check and matches the configured
 * and banned IPs, as it would on an IPv4 host (@klayr/p2p keeps the mapped form and refuses every such peer).
 */
export const remoteIP = (socket: Pick<Socket, 'remoteAddress'>): string => {
  const address = socket.remoteAddress ?? '';
  return IPV4_MAPPED.exec(address)?.[1] ?? address;
};
