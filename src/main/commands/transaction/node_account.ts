import type { RPCClient } from '../../../rpc/client.js';

export interface NodeAuthAccount {
  nonce: string;
  numberOfSignatures: number;
  mandatoryKeys: string[];
  optionalKeys: string[];
}

/** auth_getAuthAccount's answer for an address the chain has never seen. */
const isAccountNotFound = (e: unknown): boolean =>
  e instanceof Error && /^Auth account for address \S+ does not exist\.$/.test(e.message);

/**
 * A sender's auth account on the running node; for an address the chain has never seen (which
 * auth_getAuthAccount answers with an error), Klayr's default account: nonce 0, no keys.
 */
export const nodeAuthAccount = async (client: RPCClient, address: string): Promise<NodeAuthAccount> =>
  (await client.invoke('auth_getAuthAccount', { address }).catch((e: unknown) => {
    if (isAccountNotFound(e)) return { nonce: '0', numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] };
    throw e;
  })) as NodeAuthAccount;
