/**
 * The product's one error taxonomy. Every error it raises on purpose is a `NomaError` with
 * a stable string `code` and a `kind`:
 *
 * - `usage`: the command line or the request is wrong (a bad flag, a bad argument, a path
 *   outside the repository) — the caller fixes what they typed;
 * - `expected`: the input, the repository or the environment is not as needed (an invalid
 *   configuration, git failing, a lock another process holds, a typo in a path) — one
 *   message says what and what to do;
 * - `internal`: control flow inside the product, or our bug if it ever escapes.
 *
 * The library carries no exit codes: the CLI maps kinds to exit codes in one place
 * (src/cli/exit-code.ts), the MCP server to tool errors in one place (src/mcp/call-tool.ts).
 *
 * `instanceof` works across separately bundled copies of a class (the CLI's command bodies
 * each bundle their own): each class names itself (`errorName`), every instance carries the
 * names of its class chain under a global symbol, and `instanceof` consults them when the
 * prototype chain does not match.
 */

const CHAIN = Symbol.for("noma-reconcile.error-chain");

export type ErrorKind = "usage" | "expected" | "internal";

export interface NomaErrorOptions {
  cause?: unknown;
}

export class NomaError extends Error {
  /** The class's name, kept through bundling (a minifier may rename the class itself). */
  static readonly errorName: string = "NomaError";
  /** What every instance of the class is, unless the constructor says otherwise. */
  static readonly kind: ErrorKind = "expected";

  /** Stable, machine-readable: what went wrong (`lock-timeout`, `path-not-found`, …). */
  readonly code: string;
  readonly kind: ErrorKind;

  constructor(code: string, message: string, options: NomaErrorOptions & { kind?: ErrorKind } = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    const cls = new.target as unknown as typeof NomaError;
    this.name = cls.errorName;
    this.code = code;
    this.kind = options.kind ?? cls.kind;
    const chain: string[] = [];
    for (let c: unknown = cls; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) {
      const name = (c as { errorName?: unknown }).errorName;
      if (typeof name === "string" && !chain.includes(name)) chain.push(name);
    }
    Object.defineProperty(this, CHAIN, { value: chain, enumerable: false });
  }

  // `this` is the class `instanceof` asks about (a subclass inherits this method).
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the class being asked about, not NomaError
    const cls = this as unknown as typeof NomaError;
    if (Function.prototype[Symbol.hasInstance].call(cls, value)) return true;
    if (value === null || typeof value !== "object") return false;
    const chain = (value as { [CHAIN]?: unknown })[CHAIN];
    return Array.isArray(chain) && chain.includes(cls.errorName);
  }
}

/** The command line or the request is wrong: the caller fixes what they typed. */
export class UsageError extends NomaError {
  static override readonly errorName: string = "UsageError";
  static override readonly kind: ErrorKind = "usage";
  constructor(message: string, code = "usage") {
    super(code, message);
  }
}

/** A runtime or configuration failure the user can act on (the command line was fine). */
export class RuntimeError extends NomaError {
  static override readonly errorName: string = "RuntimeError";
  constructor(message: string, options: NomaErrorOptions = {}) {
    super("runtime", message, options);
  }
}

/** Whether `err` is one of ours and of `kind`. */
export function isKind(err: unknown, kind: ErrorKind): boolean {
  return err instanceof NomaError && err.kind === kind;
}
