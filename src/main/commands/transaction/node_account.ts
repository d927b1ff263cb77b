/** auth_getAuthAccount's answer for an address the chain has never seen: the account's nonce is 0. */
export const isAccountNotFound = (e: unknown): boolean =>
  e instanceof Error && /^Auth account for address \S+ does not exist\.$/.test(e.message);
