/**
 * A fast path of loading specs (a named room; its equivalence test is test/reconcile/spec-set-memo.test.ts):
 * the validated spec set, remembered in this process by the spec files' paths and texts. Validating
 * loads the YAML parser and the schemas and parses every spec; what comes out (`buildSpecSet` over
 * `validateSpecText` of each file) is a function of the sorted list of spec files and their texts
 * alone — no root, no clock, nothing else of the file system — so a process that loads the same
 * texts again (a run loads its specs when it starts, in the check's drift question, to mark, for the
 * snapshot, to record acknowledgements: in the checkout and in the run's worktree, which hold the
 * same specs unless the user has uncommitted spec changes) takes the set remembered instead.
 *
 * A set is remembered as its JSON (only when JSON carries it unchanged, as the on-disk cache
 * `.notarai/.cache/specs.json` requires), and every recall parses it afresh: callers get objects of
 * their own, exactly as validating would give them. A spec file that cannot be read as text under the
 * size cap is never remembered (its reading reports the problem). The on-disk cache
 * (load-spec-context-cached.ts) is unchanged: it is still read first, and written when it missed.
 */
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import { readRegularFile } from "../fsx/read-regular-file.js";
import { maxSpecBytes } from "../fsx/size-limits.js";
import { decodeText } from "../fsx/utf8-text.js";
import type { SpecSet } from "../governance/load-specs.js";
import type { SpecFile } from "../governance/validate-spec-text.js";

interface Remembered {
  files: SpecFile[];
  system: string | null;
}

/** Key (the paths and texts) → the set's JSON. A process sees few distinct spec sets; the oldest go beyond MAX_SETS. */
const memo = new Map<string, string>();
const MAX_SETS = 8;

/**
 * The text of each spec file `listSpecPaths` gave (sorted: the list `loadSpecs` validates); null when one cannot be read
 * as text under the cap (validating reports it).
 */
export function specTexts(root: string, specPaths: readonly string[]): Map<string, string> | null {
  const texts = new Map<string, string>();
  for (const p of specPaths) {
    try {
      texts.set(p, decodeText(readRegularFile(join(root, p), p, { maxBytes: maxSpecBytes() }), p));
    } catch {
      return null;
    }
  }
  return texts;
}

/** The memo's key of a list of spec texts: the cap too (a file over it validates as too large, not from its text). */
function keyOf(texts: ReadonlyMap<string, string>): string {
  return JSON.stringify([maxSpecBytes(), ...texts]);
}

/** The set validated from exactly `texts` earlier in this process (fresh objects), or null. */
export function recallSpecSet(texts: ReadonlyMap<string, string>): SpecSet | null {
  const json = memo.get(keyOf(texts));
  if (json === undefined) return null;
  const r = JSON.parse(json) as Remembered;
  return {
    files: r.files,
    byPath: new Map(r.files.map((f) => [f.path, f])),
    system: r.files.find((f) => f.path === r.system) ?? null,
    problems: r.files.flatMap((f) => f.problems),
  };
}

/** Remember `specs`, validated from `texts`, when it is a set of exactly those texts and JSON carries it unchanged. */
export function rememberSpecSet(texts: ReadonlyMap<string, string>, specs: SpecSet): void {
  if (specs.files.length !== texts.size || specs.files.some((f) => texts.get(f.path) !== f.text)) return;
  const r: Remembered = { files: specs.files, system: specs.system?.path ?? null };
  const json = JSON.stringify(r);
  if (!isDeepStrictEqual(JSON.parse(json), r)) return;
  const key = keyOf(texts);
  memo.delete(key);
  memo.set(key, json);
  while (memo.size > MAX_SETS) memo.delete(memo.keys().next().value as string);
}

/** Forget every remembered set (tests: the next load validates). */
export function forgetSpecSets(): void {
  memo.clear();
}
