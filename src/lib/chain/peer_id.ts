/**
 * The IP of a peer ID (`ip:port`, @klayr/p2p's constructPeerId). The port is what follows the last colon, so an
 * IPv6 address, or the IPv4-mapped `::ffff:a.b.c.d` a dual-stack server sees, keeps its own colons.
 */
export const ipOfPeerId = (peerId: string): string => {
  const colon = peerId.lastIndexOf(':');
  return colon === -1 ? peerId : peerId.slice(0, colon);
};
