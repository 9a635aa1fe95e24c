/**
 * Pure: which allowlist record admits a command line, and whether the request's
 * environment keys are ones that record accepts. The first record (in file order)
 * whose argv matches wins; its environment rules, timeout and variables then apply.
 */
import { matchArgPattern } from "./arg-pattern.js";
import type { Allowlist, AllowRecord } from "./parse-allowlist.js";

/** Does `record` admit `command` with `args`? */
export function recordMatches(record: AllowRecord, command: string, args: readonly string[]): boolean {
  if (record.argv[0] !== command) return false;
  const n = record.argPatterns.length;
  if (record.rest ? args.length < n : args.length !== n) return false;
  for (let i = 0; i < n; i++) if (!matchArgPattern(record.argPatterns[i]!, args[i]!)) return false;
  return true;
}

/** The first record admitting the command line, or null. */
export function matchAllowlist(allowlist: Allowlist, command: string, args: readonly string[]): AllowRecord | null {
  for (const r of allowlist.records) if (recordMatches(r, command, args)) return r;
  return null;
}

/** Request environment keys the record does not accept (empty when all are accepted). */
export function refusedEnvironmentKeys(record: AllowRecord, keys: readonly string[]): string[] {
  return keys.filter((k) => !record.environment.some((e) => matchArgPattern(e.parts, k)));
}
