/**
 * The line between "a patch op the engine attempts and records" and "not a
 * patch op at all". A transcript record holds its op as a PatchOp object
 * (§5.2), and every reader (our verifier included) expects `op` to be an
 * object with a string `op`; a value that is not one (null, a string, a
 * number, an array, an object without a string `op`) cannot be recorded
 * faithfully, so it is refused before anything is recorded or written, like
 * input that is not JSON. Objects with a string `op` — known or not, fields
 * right or wrong — are attempted and recorded (`unsupported_op`,
 * `invalid_content`). Nesting is bounded, and measured without recursion, so
 * that recording, sealing and verifying a record can never exhaust the stack. A
 * string UTF-8 cannot encode (a lone surrogate, which JSON's `\ud800` spells) is
 * refused too: the document would hold U+FFFD where the record holds the surrogate.
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";
import { illFormedString } from "../fsx/utf8-text.js";

/** Deepest nesting of objects and arrays accepted in one op (the op object itself is level 1; v1.0 ops need 2). */
export const MAX_OP_DEPTH = 64;

export class MalformedOpError extends NomaError {
  static override readonly errorName: string = "MalformedOpError";
  static override readonly kind: ErrorKind = "usage";
  constructor(
    readonly opIndex: number,
    readonly opCount: number,
    readonly problem: string,
  ) {
    // The §3.5 code this would carry as a PatchError.
    super("invalid_content", `invalid_content: ${opCount > 1 ? `op ${opIndex + 1} of ${opCount}` : "op"}: ${problem}; nothing was recorded or written`);
  }
}

const EXPECTED = 'expected a patch op (a JSON object with a string "op" field, e.g. {"op":"delete_block","id":"x"})';

/** A short description of a JSON value, for "found …". */
export function describeJsonValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  switch (typeof v) {
    case "string":
      return `string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
    case "number":
    case "boolean":
      return `${typeof v} ${String(v)}`;
    case "object":
      return "an object";
    default:
      return typeof v;
  }
}

/** Where an op nests deeper than MAX_OP_DEPTH (a path like `value.a.a…`), or null. Iterative. */
function tooDeep(op: object): string | null {
  const stack: Array<{ v: unknown; depth: number; path: string }> = [{ v: op, depth: 1, path: "" }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > MAX_OP_DEPTH) return path;
    const entries = Array.isArray(v)
      ? v.map((x, i) => [`[${i}]`, x] as const)
      : Object.keys(v).map((k) => [`.${k}`, (v as Record<string, unknown>)[k]] as const);
    for (const [k, x] of entries)
      if (x !== null && typeof x === "object")
        stack.push({ v: x, depth: depth + 1, path: path.length < 60 ? `${path}${k}` : path.endsWith("…") ? path : `${path}…` });
  }
  return null;
}

/** Why `value` is not a recordable patch op, or null when it is one. */
export function recordableOpProblem(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return `${EXPECTED}, found ${describeJsonValue(value)}${Array.isArray(value) ? " (an op list goes in --ops / ops, not in one op)" : ""}`;
  }
  if (!Object.hasOwn(value, "op")) return `${EXPECTED}, found an object without an "op" field`;
  const name = (value as Record<string, unknown>)["op"];
  if (typeof name !== "string") return `${EXPECTED}, found an object whose "op" is ${describeJsonValue(name)}`;
  const deep = tooDeep(value);
  if (deep !== null)
    return `${EXPECTED} nested at most ${MAX_OP_DEPTH} levels deep, found a value nested deeper than ${MAX_OP_DEPTH} levels (at ${deep.replace(/^\./, "")})`;
  // Text the document could not hold as recorded (it would be written as U+FFFD).
  const illFormed = illFormedString(value, "op");
  if (illFormed !== null) return illFormed.message.replace(/^op\./, "");
  return null;
}

/** Throw MalformedOpError for the first op of the list that is not a recordable patch op. */
export function assertRecordableOps(ops: readonly unknown[]): void {
  for (let i = 0; i < ops.length; i++) {
    const problem = recordableOpProblem(ops[i]);
    if (problem !== null) throw new MalformedOpError(i, ops.length, problem);
  }
}
