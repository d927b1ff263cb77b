import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Block } from '../../src/lib/chain/block.js';
import { encodeBlock } from '../../src/lib/chain/block.js';
import { loadConfig } from '../../src/main/config/index.js';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import { KestrelNode } from '../../src/main/node.js';
import { localP2P } from './local_p2p.js';
import { freePort } from './ports.js';
import { answerError, post } from './rpc.js';
import type { Shape } from './shape.js';
import { assertShape } from './shape.js';
import { tempDataPath } from './state.js';

export interface RPCAnswer {
  result?: unknown;
  error?: { code: number; message: string };
}

/** An in-process node on loopback, called over HTTP JSON-RPC as the spec's clients call it. */
export interface RPCNode {
  node: KestrelNode;
  config: ApplicationConfig;
  /** The node's HTTP JSON-RPC address. */
  url: string;
  /** The whole answer: the result or the error. */
  call(method: string, params?: unknown): Promise<RPCAnswer>;
  /** The result; fails with the error's message when the node answers one. */
  result(method: string, params?: unknown): Promise<unknown>;
  /** The result, checked against `shape` (the spec audit's check of an answer). */
  shaped(method: string, params: Record<string, unknown>, shape: Shape): Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * Starts a devnet node (its config changed by `adjust`, e.g. no generator or another genesis
 * block) on a fresh data path and a free port.
 */
export const startRPCNode = async (adjust: (config: ApplicationConfig) => void = () => {}): Promise<RPCNode> => {
  const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
  await localP2P(config);
  adjust(config);
  const node = new KestrelNode(config, pino({ level: 'silent' }));
  await node.start();
  const url = `http://127.0.0.1:${config.rpc.port}/rpc`;
  const call = async (method: string, params: unknown = {}): Promise<RPCAnswer> =>
    (await post(url, JSON.stringify({ jsonrpc: '2.0', id: '1', method, params }))).json as RPCAnswer;
  const result = async (method: string, params?: unknown): Promise<unknown> => {
    const answer = await call(method, params);
    const error = answerError(answer);
    assert.equal(error, undefined, `${method}: ${error?.message}`);
    return answer.result;
  };
  return {
    node,
    config,
    url,
    call,
    result,
    shaped: async (method, params, shape) => {
      const answer = await result(method, params);
      assertShape(answer, shape, method);
      return answer;
    },
    stop: () => node.stop(),
  };
};

/** Makes `block` the genesis block of the node `config` starts (written to a file of its own). */
export const useGenesisBlock = (config: ApplicationConfig, block: Block): void => {
  const file = join(tempDataPath(), 'genesis_block.blob');
  writeFileSync(file, encodeBlock(block));
  config.genesis.block = { fromFile: file };
};
