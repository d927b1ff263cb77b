import { EventEmitter } from 'node:events';
import type {
  IncomingRequest,
  NetworkStats,
  NodeInfo,
  P2PEvents,
  P2PNode,
  PeerAddress,
  PeerInfo,
  ResponsePacket,
} from '../../src/network/p2p/types.js';

/** A P2PNode that records what the protocol layer does and lets a test play the peers. */
export class FakeP2P extends EventEmitter<P2PEvents> implements P2PNode {
  readonly penalties: { peerId: string; penalty: number }[] = [];
  readonly sent: { event: string; data: Buffer | undefined; to: 'some' | 'all' | string }[] = [];
  answer: (procedure: string, data: Buffer | undefined, peerId: string) => Promise<ResponsePacket> = async () => {
    throw new Error('no peer answers');
  };
  nodeInfo: NodeInfo = {
    chainID: Buffer.from('04000000', 'hex'),
    networkVersion: '5.1',
    nonce: '0123456789abcdef',
    advertiseAddress: true,
    options: { height: 0, maxHeightPrevoted: 0, blockVersion: 0, lastBlockID: Buffer.alloc(32), legacy: [] },
  };

  isActive = false;
  async start(): Promise<void> {
    this.isActive = true;
  }
  async stop(): Promise<void> {
    this.isActive = false;
  }
  applyNodeInfo(nodeInfo: Omit<NodeInfo, 'nonce'>): void {
    this.nodeInfo = { ...nodeInfo, nonce: this.nodeInfo.nonce };
  }
  applyPenalty(penalty: { readonly peerId: string; readonly penalty: number }): void {
    this.penalties.push({ ...penalty });
  }
  request(procedure: string, data?: Buffer): Promise<ResponsePacket> {
    return this.answer(procedure, data, 'any');
  }
  requestFromPeer(procedure: string, data: Buffer | undefined, peerId: string): Promise<ResponsePacket> {
    return this.answer(procedure, data, peerId);
  }
  send(event: string, data?: Buffer): void {
    this.sent.push({ event, data, to: 'some' });
  }
  sendToPeer(event: string, data: Buffer | undefined, peerId: string): void {
    this.sent.push({ event, data, to: peerId });
  }
  broadcast(event: string, data?: Buffer): void {
    this.sent.push({ event, data, to: 'all' });
  }
  getConnectedPeers(): readonly PeerInfo[] {
    return [];
  }
  getDisconnectedPeers(): readonly PeerInfo[] {
    return [];
  }
  getTriedPeers(): readonly PeerAddress[] {
    return [];
  }
  getNetworkStats(): NetworkStats {
    throw new Error('not in the fake');
  }

  /** A peer's request; resolves with the answer's bytes or rejects with its error. */
  call(procedure: string, data: Buffer | undefined, peerId = '127.0.0.9:7667'): Promise<Buffer | undefined> {
    return new Promise((resolve, reject) => {
      const request: IncomingRequest = {
        procedure,
        data,
        peerId,
        rate: 0,
        end: (answer) => resolve(answer),
        error: (error) => reject(error),
      };
      this.emit('requestReceived', request);
    });
  }

  /** A peer's message. */
  post(event: string, data: Buffer | undefined, peerId = '127.0.0.9:7667'): void {
    this.emit('messageReceived', { event, data, peerId, rate: 0 });
  }
}
