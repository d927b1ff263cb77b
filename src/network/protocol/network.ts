import type { Logger } from 'pino';
import type { ConnectedPeer, PeerResponse, Peers } from '../../engine/network/peers.js';
import { PENALTY_BAN } from '../../lib/chain/p2p_penalties.js';
import type { IncomingMessage, IncomingRequest, P2PNode } from '../p2p/types.js';
import { RateLimiter } from './rate_limiter.js';

/** A procedure's handler: the answer's bytes (or nothing), or a thrown error that the peer receives. */
export type ProcedureHandler = (
  data: Buffer | undefined,
  peerId: string,
) => Buffer | undefined | Promise<Buffer | undefined>;
/** An event's handler; it penalises the sender for what it refuses, and may throw to end its work. */
export type EventHandler = (data: Buffer | undefined, peerId: string) => void;

/**
 * The framework's side of P2P (klayr-framework's engine/network): procedures and events
 * registered by name, everything else refused with penalty 100, and the engine's `Peers`.
 */
export class Network implements Peers {
  readonly rateLimiter: RateLimiter;
  readonly #procedures = new Map<string, ProcedureHandler>();
  readonly #events = new Map<string, EventHandler>();

  constructor(
    readonly p2p: P2PNode,
    private readonly logger: Logger,
  ) {
    this.rateLimiter = new RateLimiter((peerId, penalty) => this.applyPenalty(peerId, penalty));
    p2p.on('requestReceived', (request) => void this.#onRequest(request));
    p2p.on('messageReceived', (message) => this.#onMessage(message));
    // what klayr-framework's engine/network logs of its peers (a ban at error level there)
    p2p.on('networkReady', () => logger.debug('Node connected to the network'));
    p2p.on('peerConnected', ({ peerId }, kind) => logger.debug({ peerId, kind }, `Peer connected (${kind})`));
    p2p.on('peerClosed', ({ peerId }, kind, code, reason) =>
      logger.debug({ peerId, kind, code, reason }, `Peer connection closed (${kind}): ${code} ${reason}`),
    );
    p2p.on('peerBanned', (peerId) =>
      logger.warn(
        { peerId },
        `Peer ${peerId} has been banned for 24 hours: it broke the protocol or lost its reputation`,
      ),
    );
  }

  registerProcedure(name: string, handler: ProcedureHandler): void {
    if (this.#procedures.has(name)) throw new Error(`Endpoint ${name} has already been registered.`);
    this.#procedures.set(name, handler);
  }

  registerEvent(name: string, handler: EventHandler): void {
    if (this.#events.has(name)) throw new Error(`Event handler for ${name} has already been registered.`);
    this.#events.set(name, handler);
  }

  async start(): Promise<void> {
    this.rateLimiter.start();
    await this.p2p.start();
  }

  /** Stops what runs: a network whose start never came (a node whose start failed) has nothing to stop. */
  async stop(): Promise<void> {
    this.rateLimiter.stop();
    if (this.p2p.isActive) await this.p2p.stop();
  }

  request(procedure: string, data?: Buffer): Promise<PeerResponse> {
    return this.p2p.request(procedure, data);
  }

  requestFromPeer(peerId: string, procedure: string, data?: Buffer): Promise<PeerResponse> {
    return this.p2p.requestFromPeer(procedure, data, peerId);
  }

  send(event: string, data: Buffer): void {
    this.p2p.send(event, data);
  }

  broadcast(event: string, data: Buffer): void {
    this.p2p.broadcast(event, data);
  }

  connectedPeers(): readonly ConnectedPeer[] {
    return this.p2p.getConnectedPeers().map(({ peerId, sharedState }) => {
      const options = sharedState?.options;
      if (options === undefined) return { peerId };
      const { height, maxHeightPrevoted, blockVersion, lastBlockID, legacy } = options;
      return { peerId, options: { height, maxHeightPrevoted, blockVersion, lastBlockID, legacy } };
    });
  }

  /** A peer that has gone meanwhile is left alone: its penalty has nowhere to go. */
  applyPenalty(peerId: string, penalty: number): void {
    try {
      this.p2p.applyPenalty({ peerId, penalty });
    } catch (error) {
      this.logger.debug({ err: error, peerId, penalty }, 'Penalty not applied');
    }
  }

  async #onRequest(request: IncomingRequest): Promise<void> {
    const handler = this.#procedures.get(request.procedure);
    if (handler === undefined) {
      this.logger.warn(
        { procedure: request.procedure, peerId: request.peerId },
        'Requested procedure is not permitted: applying a penalty to the peer',
      );
      this.applyPenalty(request.peerId, PENALTY_BAN);
      request.error(new Error(`Requested procedure "${request.procedure}" is not permitted.`));
      return;
    }
    try {
      request.end(await handler(request.data, request.peerId));
    } catch (error) {
      this.logger.debug({ err: error, procedure: request.procedure, peerId: request.peerId }, 'Peer request failed');
      request.error(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #onMessage(message: IncomingMessage): void {
    const handler = this.#events.get(message.event);
    if (handler === undefined) {
      this.logger.warn(
        { event: message.event, peerId: message.peerId },
        'Sent event is not permitted: applying a penalty to the peer',
      );
      this.applyPenalty(message.peerId, PENALTY_BAN);
      return;
    }
    try {
      handler(message.data, message.peerId);
    } catch (error) {
      // the handlers apply Klayr's penalty for what they refuse, as its async event handlers do
      this.logger.debug({ err: error, event: message.event, peerId: message.peerId }, 'A peer event was refused');
    }
  }
}
