export { EMPTY_HASH, branchHash, leafHash } from './hash.js';
export { treeHeight, ROOT_INDEX } from './merkle_utils.js';
export * from './merkle_tree.js';
export * from './smt.js';
export { smtRootOf } from './smt_root.js';
export { smtLeafHash, smtBranchHash } from './smt_node.js';
