/** Signing tags of the Klayr protocol: every signature covers `tag || chainID || message`. */
export const MESSAGE_TAG_TRANSACTION = 'KLY_TX_';
export const MESSAGE_TAG_BLOCK_HEADER = 'KLY_BH_';
export const MESSAGE_TAG_CERTIFICATE = 'KLY_CE_';
export const MESSAGE_TAG_NON_PROTOCOL_MESSAGE = 'KLY_NPM_';
/** Sidechain/mainchain registration (interoperability). */
export const MESSAGE_TAG_CHAIN_REG = 'KLY_CRM_';
export const MESSAGE_TAG_POA = 'KLY_POA_';
export const MESSAGE_TAG_MULTISIG_REG = 'KLY_RMSG_';

const TAG_PART = /^[A-Za-z0-9]+$/;

/** `KLY_<domain>[:<version>]_`, as @klayr/cryptography's createMessageTag. */
export const createMessageTag = (domain: string, version?: string | number): string => {
  if (!TAG_PART.test(domain)) throw new Error(`Message tag domain must be alphanumeric, got "${domain}"`);
  if (version !== undefined && !TAG_PART.test(String(version)))
    throw new Error(`Message tag version must be alphanumeric, got "${version}"`);
  return `KLY_${version !== undefined ? `${domain}:${version}` : domain}_`;
};

export const tagMessage = (tag: string, chainID: Uint8Array, message: Uint8Array | string): Buffer =>
  Buffer.concat([
    Buffer.from(tag, 'utf8'),
    chainID,
    typeof message === 'string' ? Buffer.from(message, 'utf8') : message,
  ]);
