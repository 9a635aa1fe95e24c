/**
 * V8 frees a class's hidden class once no instance of it is alive, and with it the
 * optimized code specialised to that class: a process that parses document after
 * document with garbage collections in between (the MCP server, a check of many files)
 * would run its hot loops unoptimized again after every collection. Keeping one small
 * instance of each hot class alive keeps its hidden class, and the optimized code.
 */
const kept: unknown[] = [];

/** Keep `instance` (and so its hidden class) alive for the life of the process. */
export function keepShape<T>(instance: T): T {
  kept.push(instance);
  return instance;
}
