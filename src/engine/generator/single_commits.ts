import { blockHeaderID } from '../../lib/chain/block.js';
import { signCertificate, unsignedCertificateOf } from '../../lib/chain/certificate.js';
import type { SingleCommit } from '../../lib/chain/single_commit.js';
import type { BFTMethod } from '../bft/index.js';
import type { Chain } from '../chain/chain.js';

export interface CertifyingKeys {
  address: Buffer;
  blsKey: Buffer;
  blsPrivateKey: Buffer;
}

/**
 * Klayr's SingleCommitHandler for one validator whose keys are here: finality moved from `from`
 * to `to`, so it signs the certificate of `to` and of every height in between after which the
 * validator set changes, where it is active with these BLS keys.
 */
export const singleCommitsOf = (
  chain: Pick<Chain, 'engineView' | 'headerAt'> & { readonly bft: BFTMethod },
  chainID: Buffer,
  keys: CertifyingKeys,
  from: number,
  to: number,
): SingleCommit[] => {
  const engine = chain.engineView();
  const commits: SingleCommit[] = [];
  for (let height = from + 1; height <= to; height++) {
    if (height < to && !chain.bft.existBFTParameters(engine, height + 1)) continue;
    const { validators } = chain.bft.getBFTParametersActiveValidators(engine, height);
    const validator = validators.find((v) => v.address.equals(keys.address));
    if (validator === undefined || !validator.blsKey.equals(keys.blsKey)) continue;
    const header = chain.headerAt(height);
    if (header === undefined) continue;
    commits.push({
      blockID: blockHeaderID(header),
      height,
      validatorAddress: keys.address,
      certificateSignature: signCertificate(keys.blsPrivateKey, chainID, unsignedCertificateOf(header)),
    });
  }
  return commits;
};
