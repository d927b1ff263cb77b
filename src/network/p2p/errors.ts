/** start() on a port something else listens on (as the RPC server's PortInUseError, for network.port). */
export class P2PPortInUseError extends Error {
  override readonly name = 'P2PPortInUseError';
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`Port ${port} on ${host} is already in use (network.port)`);
  }
}

/** A request that could not be made or got no answer (@klayr/p2p RequestFailError). */
export class RequestFailError extends Error {
  override readonly name = 'RequestFailError';
}

/** A send to a peer that is not connected (@klayr/p2p SendFailError). */
export class SendFailError extends Error {
  override readonly name = 'SendFailError';
}

/** The remote side answered a request with an error (a hydrated SocketCluster error). */
export class RemoteError extends Error {
  constructor(
    message: string,
    readonly remoteName: string | undefined,
  ) {
    super(message);
    this.name = remoteName ?? 'Error';
  }
}

/** No answer within the ack timeout (SocketCluster's TimeoutError). */
export class RequestTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** The socket closed before the answer came (SocketCluster's BadConnectionError). */
export class BadConnectionError extends Error {
  override readonly name = 'BadConnectionError';
}

/** Node info or a peer list that cannot be decoded or is too large (@klayr/p2p InvalidNodeInfoError / InvalidPeerInfoError). */
export class InvalidPeerDataError extends Error {
  override readonly name = 'InvalidPeerDataError';
}
