/**
 * A command's first argument chosen from a fixed list (`state show`, `schema patch-op`): any
 * other word is a usage error naming the choices and the closest one.
 */
import { closestName } from "../errors/did-you-mean.js";
import { UsageError } from "../errors/noma-error.js";

/** `a, b or c` */
function orList(values: readonly string[]): string {
  return values.length <= 1 ? (values[0] ?? "") : `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;
}

/** `value` when it is one of `allowed`; else `unknown action 'x' for state; expected snapshot, show or reset. Did you mean 'show'?` */
export function actionArg<T extends string>(command: string, value: unknown, allowed: readonly T[], what = "action"): T {
  const v = value === undefined ? "" : String(value);
  if ((allowed as readonly string[]).includes(v)) return v as T;
  if (v === "") throw new UsageError(`${command} needs ${what === "action" ? "an" : "a"} ${what}: ${orList(allowed)}`);
  const guess = closestName(v, allowed);
  throw new UsageError(`unknown ${what} '${v}' for ${command}; expected ${orList(allowed)}.${guess !== undefined ? ` Did you mean '${guess}'?` : ""}`);
}
