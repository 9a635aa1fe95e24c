/**
 * The installed hook's question to git (STAGED_FILTER: judged names as pathspecs) against the
 * library's own answer, on generated names staged into a real index: the shell filter says
 * "nothing judged is staged" exactly when `check --staged` would (its listing, classified by
 * `checkedPathKind`). Names are bytes built from the judged suffixes and prefixes in any case,
 * separators, spaces, newlines, quotes, leading dashes, glob and pathspec characters, and bytes
 * that are not UTF-8; some are staged as deletions of committed names. The one allowed
 * difference is conservative: `:(top,literal).notarai/config.yaml` also matches paths under a
 * directory of that name (node starts, and finds nothing).
 */
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkedPathKind, listStagedEntries, STAGED_FILTER } from "../../src/internal.js";
import { git, tempRepo } from "../helpers/temp-repo.js";

const PIECES: Buffer[] = [
  "a",
  "docs",
  ".notarai",
  ".NOTARAI",
  ".Notarai",
  "config.yaml",
  "config",
  ".noma",
  ".NOMA",
  ".NoMa",
  "noma",
  ".patches",
  ".PATCHES",
  ".capabilities",
  ".Capabilities",
  ".yml",
  ".yaml",
  ".YML",
  ".spec",
  ".spec.yaml",
  ".SPEC.yaml",
  ".",
  " ",
  "\n",
  "\t",
  "'",
  '"',
  "-",
  "--",
  "*",
  "?",
  "[a]",
  "\\",
  ":",
  ":(top)",
  "**",
  "é",
  "İ",
  "\u212a",
].map((s) => Buffer.from(s));
const RAW: Buffer[] = [Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0x80]), Buffer.from([0xfe, 0xff])];

const segment = fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.constantFrom(...RAW) }), {
  minLength: 1,
  maxLength: 4,
});
const name = fc.array(segment, { minLength: 1, maxLength: 3 }).map((segs) => Buffer.concat(segs.flatMap((s, i) => (i === 0 ? s : [Buffer.from("/"), ...s]))));

/** A name git may hold: no empty, `.` or `..` component, no `.git` component. */
function holdable(n: Buffer): boolean {
  return n
    .toString("latin1")
    .split("/")
    .every((c) => c !== "" && c !== "." && c !== ".." && c.toLowerCase() !== ".git");
}

/**
 * Stage a run's names: `git read-tree HEAD`; with "add" as $1, `git update-index --add -z --index-info`
 * of stdin (exit 3 when git refuses a name); the other arguments staged as deletions with
 * `git rm -q --cached --ignore-unmatch`.
 */
const STAGE = `set -e
git read-tree HEAD
if [ "$1" = add ]; then git update-index --add -z --index-info || exit 3; fi
shift
if [ $# -gt 0 ]; then git rm -q --cached --ignore-unmatch -- "$@"; fi
`;

/** Whether the hook's filter (run by sh, as the hook runs it) says something judged is staged. */
function shellSaysRelevant(repo: string): boolean {
  const r = spawnSync("sh", ["-c", STAGED_FILTER], { cwd: repo });
  if (r.status !== 0 && r.status !== 1) throw new Error(`the filter failed (${r.status}): ${r.stderr}`);
  return r.status === 1;
}

describe("the hook's filter agrees with check --staged on every staged name", () => {
  it("generated names, added or deleted: the filter starts node exactly when check --staged finds something to judge", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    const blob = git(repo, ["hash-object", "-w", "--stdin"], "x\n").trim();
    // Committed names the runs may delete: one of each judged kind and code.
    const committed = [
      "docs/p.noma",
      "docs/p.noma.patches",
      "b/b.noma.yml",
      "docs/p.noma.capabilities.yml",
      ".notarai/a.spec.yaml",
      ".notarai/config.yaml",
      "src/a.ts",
    ];
    const info = (names: Buffer[]): Buffer => Buffer.concat(names.flatMap((n) => [Buffer.from(`100644 ${blob}\t`), n, Buffer.from([0])]));
    spawnSync("git", ["update-index", "-z", "--index-info"], { cwd: repo, input: info(committed.map((c) => Buffer.from(c))) });
    git(repo, ["commit", "-q", "--no-verify", "-m", "judged kinds"]);
    const seen = { relevant: 0, irrelevant: 0 };
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 3 }), fc.subarray(committed, { maxLength: 2 }), (names, deleted) => {
        // The index is set up by one shell running the three git commands in turn (one process
        // started from this one instead of three): HEAD read back, the names added, the deletions staged.
        const added = names.filter(holdable);
        const r = spawnSync("sh", ["-c", STAGE, "stage", added.length > 0 ? "add" : "", ...deleted], { cwd: repo, input: info(added) });
        if (r.status === 3) fc.pre(false); // git refused a generated name
        if (r.status !== 0) throw new Error(`staging failed (${r.status}): ${r.stderr}`);
        const entries = listStagedEntries(repo);
        const library = entries.some((e) => checkedPathKind(e.path) !== null);
        const shell = shellSaysRelevant(repo);
        if (library) expect(shell, JSON.stringify(entries.map((e) => e.path))).toBe(true);
        else {
          const superset = entries.some((e) => e.path.startsWith(".notarai/config.yaml/"));
          if (!superset) expect(shell, JSON.stringify(entries.map((e) => e.path))).toBe(false);
        }
        seen[library ? "relevant" : "irrelevant"]++;
      }),
      { numRuns: 100 },
    );
    // Both answers were exercised.
    expect(seen.relevant).toBeGreaterThan(15);
    expect(seen.irrelevant).toBeGreaterThan(15);
  });
});
