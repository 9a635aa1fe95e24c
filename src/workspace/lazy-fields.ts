/**
 * Records whose values are built on first use: the MCP tools' and the workspace tools' zod
 * schemas (src/mcp/tool-schemas.ts, workspace-schemas.ts). A server answers a tool call with
 * that one tool's argument schema; building every tool's input and output schemas at the first
 * call cost it more than the call itself (docs/perf/mcp.md). Each value is a getter, enumerable,
 * in the order given, that calls its builder once and keeps what it returned: `Object.keys`,
 * `Object.entries`, spreading and `JSON.stringify` see the same record an eager one would, and
 * every read gives the same object (a schema shared by several tools stays one schema, which
 * the JSON Schema generation relies on to emit it once). test/mcp/lazy-fields.test.ts holds it
 * against building everything up front.
 */

/** A builder for each field of T. */
export type Builders<T> = { [K in keyof T]: () => T[K] };

/** T with each field built by its builder on first read, once. */
export function lazyFields<T extends object>(builders: Builders<T>): T {
  const out = {} as T;
  for (const key of Object.keys(builders) as Array<keyof T & string>) Object.defineProperty(out, key, { enumerable: true, get: once(builders[key]) });
  return out;
}

/** A value built on first call, once: a schema several tools share. */
export function once<T>(build: () => T): () => T {
  let built = false;
  let value: T | undefined;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}
