// Per-peer counters @klayr/p2p keeps (peer/base.js): WebSocket messages per second, calls per procedure and event
// per rate window, the discovery messages counted per 10 s (postNodeInfo, getPeers) or per connection
// (getNodeInfo), and the productivity of the answers the peer got from us.
export class PeerCounters {
  wsMessageCount = 0;
  wsMessageRate = 0;
  rpcCounter = new Map<string, number>();
  rpcRates = new Map<string, number>();
  messageCounter = new Map<string, number>();
  messageRates = new Map<string, number>();
  readonly discovery = { getPeers: 0, getNodeInfo: 0, postNodeInfo: 0 };
  productivity = { requestCounter: 0, responseCounter: 0, responseRate: 0, lastResponded: 0 };

  countRpc(procedure: string): void {
    this.rpcCounter.set(procedure, (this.rpcCounter.get(procedure) ?? 0) + 1);
  }

  countMessage(event: string): void {
    this.messageCounter.set(event, (this.messageCounter.get(event) ?? 0) + 1);
  }

  /** Calls per second of a procedure in the last finished window (P2PRequest.rate). */
  rpcRate(procedure: string): number {
    return (this.rpcRates.get(procedure) ?? 0) * 1000;
  }

  messageRate(event: string): number {
    return (this.messageRates.get(event) ?? 0) * 1000;
  }

  /**
   * Closes a rate window of `intervalMs`: returns the WebSocket message rate and the procedures called more than
   * once in it, and starts the next window.
   */
  closeWindow(intervalMs: number): { wsMessageRate: number; repeatedProcedures: string[] } {
    this.wsMessageRate = (this.wsMessageCount * 1000) / intervalMs;
    this.wsMessageCount = 0;
    const repeatedProcedures = [...this.rpcCounter].filter(([, count]) => count > 1).map(([procedure]) => procedure);
    this.rpcRates = new Map([...this.rpcCounter].map(([key, value]) => [key, value / intervalMs]));
    this.rpcCounter = new Map();
    this.messageRates = new Map([...this.messageCounter].map(([key, value]) => [key, value / intervalMs]));
    this.messageCounter = new Map();
    return { wsMessageRate: this.wsMessageRate, repeatedProcedures };
  }

  resetStatusCounters(): void {
    this.discovery.postNodeInfo = 0;
    this.discovery.getPeers = 0;
  }

  resetProductivity(now: number, intervalMs: number): void {
    if (this.productivity.lastResponded < now - intervalMs)
      this.productivity = { requestCounter: 0, responseCounter: 0, responseRate: 0, lastResponded: 0 };
  }

  countAnswer(answered: boolean): void {
    if (answered) {
      this.productivity.lastResponded = Date.now();
      this.productivity.responseCounter += 1;
    }
    this.productivity.responseRate = this.productivity.responseCounter / this.productivity.requestCounter;
  }
}
