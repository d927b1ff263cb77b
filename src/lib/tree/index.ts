export { branchHash, EMPTY_HASH, leafHash } from './hash.js';
export * from './merkle_tree.js';
export { ROOT_INDEX, treeHeight } from './merkle_utils.js';
export * from './smt.js';
export { smtBranchHash, smtLeafHash } from './smt_node.js';
export { smtRootOf, smtRootOfSorted } from './smt_root.js';
