import type { RPCClient } from '../../rpc/client.js';
import { pollUntil } from '../child_nodes/rpc.js';

/** Klayr's chain status of a registered chain that has not sent its first CCU yet, and after. */
const CHAIN_STATUS_ACTIVE = 1;

export interface Partner {
  /** Where the partner is registered. */
  on: RPCClient;
  partnerID: string;
  what: string;
}

const isActive = async ({ on, partnerID }: Partner): Promise<boolean> => {
  try {
    return (
      ((await on.invoke('interoperability_getChainAccount', { chainID: partnerID })) as { status: number }).status ===
      CHAIN_STATUS_ACTIVE
    );
  } catch {
    return false;
  }
};

/**
 * Reports when each partner becomes active where it is registered: Klayr sends no CCM (a
 * cross-chain transfer among them) to a registered chain until its first CCU has arrived.
 * Polls until both are active or `stopped` says to stop.
 */
export const reportActivation = async (
  partners: readonly Partner[],
  intervalMs: number,
  stopped: () => boolean,
  progress: (line: string) => void,
): Promise<void> => {
  await Promise.all(
    partners.map(async (partner) => {
      const active = await pollUntil(
        async () => stopped() || (await isActive(partner)),
        Number.MAX_SAFE_INTEGER,
        intervalMs,
      );
      if (active && !stopped()) progress(`${partner.what} is active: cross-chain messages to it can be sent`);
    }),
  );
};
