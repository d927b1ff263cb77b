// The constants of @klayr/p2p 0.10.1 (dist-node/constants.js, events.js) that Kestrel's P2P layer follows.

export const HTTP_PATH = '/rpc/';
export const DEFAULT_HOST_IP = '0.0.0.0';
export const LOCALHOST_IP = '127.0.0.1';

export const BAN_TIME_MS = 86_400_000;
export const POPULATOR_INTERVAL_MS = 10_000;
export const FALLBACK_SEED_DISCOVERY_INTERVAL_MS = 30_000;
export const OUTBOUND_SHUFFLE_INTERVAL_MS = 300_000;
export const SEND_PEER_LIMIT = 16;
export const CONTROL_MESSAGE_LIMIT = 10;
export const WS_MAX_MESSAGE_RATE = 100;
export const WS_MAX_MESSAGE_RATE_PENALTY = 10;
export const RATE_CALCULATION_INTERVAL_MS = 1000;
export const WS_MAX_PAYLOAD = 3_048_576;
export const NONCE_LENGTH_BYTES = 8;
export const MAX_OUTBOUND_CONNECTIONS = 20;
export const MAX_INBOUND_CONNECTIONS = 100;
export const MIN_PEER_DISCOVERY_THRESHOLD = 100;
export const MAX_PEER_DISCOVERY_RESPONSE_LENGTH = 200;
export const MAX_PEER_INFO_SIZE = 20_480;
export const MIN_TRIED_PEER_COUNT = 100;
export const REPUTATION_SCORE = 100;
export const PRODUCTIVITY_RESET_INTERVAL_MS = 20_000;
export const PEER_STATUS_MESSAGE_RATE = 4;
export const PEER_STATUS_MESSAGE_RATE_INTERVAL_MS = 10_000;
export const INVALID_PEER_LIST_PENALTY = 100;
export const INVALID_PEER_INFO_PENALTY = 100;
export const PING_INTERVAL_MIN_MS = 20_000;
export const PING_INTERVAL_MAX_MS = 60_000;
export const MAX_EVENT_NAME_LENGTH = 128;

// Peer book (peer_book/*.js).
export const NEW_BUCKET_COUNT = 128;
export const NEW_BUCKET_SIZE = 32;
export const TRIED_BUCKET_COUNT = 64;
export const TRIED_BUCKET_SIZE = 32;
export const EVICTION_THRESHOLD_TIME_MS = 86_400_000;
export const MAX_RECONNECT_TRIES = 3;

// Inbound-eviction protection ratios (peer_pool.js).
export const PROTECTION_FOR_NETGROUP = 0.034;
export const PROTECTION_FOR_LATENCY = 0.068;
export const PROTECTION_FOR_USEFULNESS = 0.068;
export const PROTECTION_FOR_LONGEVITY = 0.5;

// SocketCluster 14: the outbound (socketcluster-client) side uses @klayr/p2p's connect/ack timeouts of 2 s; the
// inbound (socketcluster-server) side keeps the server defaults: ack 10 s, handshake 10 s, ping every 8 s, pong 20 s.
export const CLIENT_CONNECT_TIMEOUT_MS = 2000;
export const CLIENT_ACK_TIMEOUT_MS = 2000;
export const SERVER_ACK_TIMEOUT_MS = 10_000;
export const SERVER_HANDSHAKE_TIMEOUT_MS = 10_000;
export const SERVER_PING_INTERVAL_MS = 8000;
export const SERVER_PING_TIMEOUT_MS = 20_000;

// Close codes and reasons.
export const INTENTIONAL_DISCONNECT_CODE = 1000;
export const SEED_PEER_DISCONNECTION_REASON = 'Disconnect from SeedPeer after discovery';
export const INVALID_CONNECTION_URL_CODE = 4501;
export const INVALID_CONNECTION_URL_REASON = 'Peer did not provide a valid URL as part of the WebSocket connection';
export const INVALID_CONNECTION_QUERY_CODE = 4502;
export const INVALID_CONNECTION_QUERY_REASON =
  'Peer did not provide valid query parameters as part of the WebSocket connection';
export const INVALID_CONNECTION_SELF_CODE = 4101;
export const INVALID_CONNECTION_SELF_REASON = 'Peer cannot connect to itself';
export const INCOMPATIBLE_NETWORK_REASON = 'Peer chainID did not match our own';
export const INCOMPATIBLE_PROTOCOL_VERSION_REASON = 'Peer has incompatible protocol version';
export const INCOMPATIBLE_PEER_CODE = 4104;
export const INCOMPATIBLE_PEER_UNKNOWN_REASON = 'Peer is incompatible with the node for unknown reasons';
export const INCOMPATIBLE_PEER_INFO_CODE = 4105;
export const FORBIDDEN_CONNECTION = 4403;
export const FORBIDDEN_CONNECTION_REASON = 'Peer is not allowed to connect';
export const EVICTED_PEER_CODE = 4418;
export const DUPLICATE_CONNECTION = 4404;
export const DUPLICATE_CONNECTION_REASON = 'Peer has a duplicate connection';
export const INVALID_CONNECTION_ADDRESS_CODE = 4503;
export const INVALID_CONNECTION_ADDRESS_REASON =
  'Peer did not provide a valid address as part of the WebSocket connection';
export const INVALID_PEER_INFO_LIST_REASON = 'PeerInfo list has invalid value';
export const PEER_INFO_LIST_TOO_LONG_REASON = 'PeerInfo list is too long';

// SocketCluster's own close codes (sc-errors socketProtocolErrorStatuses).
export const SC_PING_TIMEOUT_CODE = 4000; // client: no #1 from the server in time
export const SC_PONG_TIMEOUT_CODE = 4001; // server: no message from the client in time
export const SC_HANDSHAKE_FAILED_CODE = 4003;
export const SC_HANDSHAKE_TIMEOUT_CODE = 4005;
export const SC_CONNECT_TIMEOUT_CODE = 4007;

// Wire events and procedures.
export const SC_EVENT_RPC_REQUEST = 'rpc-request';
export const SC_EVENT_MESSAGE = 'remote-message';
export const EVENT_POST_NODE_INFO = 'postNodeInfo';
export const RPC_GET_NODE_INFO = 'getNodeInfo';
export const RPC_GET_PEERS = 'getPeers';
export const RPC_PING = 'ping';
export const RPC_PONG = 'pong';
/** Procedures answered at most once per second per peer (events.js PROTOCOL_EVENTS_TO_RATE_LIMIT). */
export const RATE_LIMITED_PROTOCOL_PROCEDURES: ReadonlySet<string> = new Set([RPC_GET_NODE_INFO, RPC_GET_PEERS]);
/** SocketCluster events a peer may never send (peer_server.js). */
export const FORBIDDEN_SC_EVENTS: ReadonlySet<string> = new Set([
  '#authenticate',
  '#removeAuthToken',
  '#subscribe',
  '#unsubscribe',
  '#publish',
]);

/** Close reasons for codes that arrive without one (sc-errors' statuses plus @klayr/p2p's 1000, peer/base.js). */
export const CLOSE_CODE_REASONS: Readonly<Record<number, string>> = {
  1000: 'Intentionally disconnected',
  1001: 'Socket was disconnected',
  1002: 'A WebSocket protocol error was encountered',
  1003: 'Server terminated socket because it received invalid data',
  1005: 'Socket closed without status code',
  1006: 'Socket hung up',
  1007: 'Message format was incorrect',
  1008: 'Encountered a policy violation',
  1009: 'Message was too big to process',
  1010: 'Client ended the connection because the server did not comply with extension requirements',
  1011: 'Server encountered an unexpected fatal condition',
  4000: 'Server ping timed out',
  4001: 'Client pong timed out',
  4002: 'Server failed to sign auth token',
  4003: 'Failed to complete handshake',
  4004: 'Client failed to save auth token',
  4005: 'Did not receive #handshake from client before timeout',
  4006: 'Failed to bind socket to message broker',
  4007: 'Client connection establishment timed out',
  4008: 'Server rejected handshake from client',
  4009: 'Server received a message before the client handshake',
};

export const closeReason = (code: number, reason: string | undefined): string =>
  reason !== undefined && reason !== '' ? reason : (CLOSE_CODE_REASONS[code] ?? 'Unknown reason');
