export { branchHash, EMPTY_HASH, leafHash } from './hash.js';
export * from './merkle_tree.js';
export { ROOT_INDEX, treeHeight } from './merkle_utils.js';
export * from './smt.js';
export { EMPTY_ROOT_REF, NODE_REF_BYTES, nodeRef, refHash, smtBranchHash, smtLeafHash } from './smt_node.js';
export type { SMTNodeList } from './smt_packed.js';
export { PackedSMTNodes, smtNodeList } from './smt_packed.js';
export { buildSMT, smtRootOf, smtRootOfSorted } from './smt_root.js';
