/** A validator as BFT parameters list it (the chain connector's validators data). */
export interface ValidatorEntry {
  address: Buffer;
  blsKey: Buffer;
  bftWeight: bigint;
}

export interface ValidatorsData {
  validators: ValidatorEntry[];
  certificateThreshold: bigint;
  validatorsHash: Buffer;
}

export interface ActiveValidatorsUpdate {
  blsKeysUpdate: Buffer[];
  bftWeightsUpdate: bigint[];
  bftWeightsUpdateBitmap: Buffer;
}

export const EMPTY_ACTIVE_VALIDATORS_UPDATE: ActiveValidatorsUpdate = {
  blsKeysUpdate: [],
  bftWeightsUpdate: [],
  bftWeightsUpdateBitmap: Buffer.alloc(0),
};

const byKey = (a: { blsKey: Buffer }, b: { blsKey: Buffer }) => Buffer.compare(a.blsKey, b.blsKey);

/**
 * LIP 0053's active validators update from one validator set to the next (Klayr's
 * getActiveValidatorsUpdate): new BLS keys, changed weights (0 for removed validators), and a
 * bitmap over all keys of both sets in key order, big-endian, bit i for the i-th key.
 */
export const getActiveValidatorsUpdate = (
  current: readonly { blsKey: Buffer; bftWeight: bigint }[],
  next: readonly { blsKey: Buffer; bftWeight: bigint }[],
): ActiveValidatorsUpdate => {
  const currentByKey = new Map(current.map((v) => [v.blsKey.toString('hex'), v]));
  const nextKeys = new Set(next.map((v) => v.blsKey.toString('hex')));
  const allKeys = [...new Set([...currentByKey.keys(), ...nextKeys])].sort();
  const blsKeysUpdate: Buffer[] = [];
  const updates: { blsKey: Buffer; bftWeight: bigint }[] = [];
  for (const v of next) {
    const known = currentByKey.get(v.blsKey.toString('hex'));
    if (known === undefined) {
      blsKeysUpdate.push(v.blsKey);
      updates.push(v);
    } else if (known.bftWeight !== v.bftWeight) updates.push(v);
  }
  for (const v of current)
    if (!nextKeys.has(v.blsKey.toString('hex'))) updates.push({ blsKey: v.blsKey, bftWeight: 0n });
  blsKeysUpdate.sort(Buffer.compare);
  updates.sort(byKey);
  let bitmap = 0n;
  for (const v of updates) bitmap |= 1n << BigInt(allKeys.indexOf(v.blsKey.toString('hex')));
  const size = Math.floor((allKeys.length + 7) / 8);
  const hex = bitmap.toString(16);
  const bytes = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
  return {
    blsKeysUpdate,
    bftWeightsUpdate: updates.map((v) => v.bftWeight),
    bftWeightsUpdateBitmap: bytes.length < size ? Buffer.concat([Buffer.alloc(size - bytes.length), bytes]) : bytes,
  };
};

/** The update and the threshold a CCU carries when the certified validator set changed (Klayr's calculateActiveValidatorsUpdate). */
export const calculateActiveValidatorsUpdate = (
  atLastCertificate: ValidatorsData,
  atNewCertificate: ValidatorsData,
): { activeValidatorsUpdate: ActiveValidatorsUpdate; certificateThreshold: bigint } => ({
  activeValidatorsUpdate: getActiveValidatorsUpdate(atLastCertificate.validators, atNewCertificate.validators),
  certificateThreshold: atNewCertificate.certificateThreshold,
});
