/**
 * rpc.allowedMethods: "*" allows everything, a namespace allows its methods, a full
 * `namespace_method` allows that method; an empty list allows nothing.
 */
export const createAccessCheck = (
  allowedMethods: readonly string[] = [],
): ((namespace: string, method: string) => boolean) => {
  const allowed = new Set(allowedMethods);
  if (allowed.has('*')) return () => true;
  if (allowed.size === 0) return () => false;
  return (namespace, method) => allowed.has(namespace) || allowed.has(`${namespace}_${method}`);
};
