/**
 * What `patch` prints about validation: the diagnostics the op list introduced and
 * resolved, with a count of the unchanged (never the whole document's list), through the
 * real CLI; `--format json` keeps both lists and the totals; the "no capability sidecar"
 * note only with `--verbose`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

/** 1,500 claims, none with evidence: 1,500 claim-without-evidence warnings. */
function claims(n: number): string {
  const out = ["# Claims", ""];
  for (let i = 0; i < n; i++) out.push(`::claim{id="c${i}" confidence=0.5}`, `Claim ${i}.`, "::", "");
  return out.join("\n");
}

const op = (o: Record<string, unknown>): string[] => ["--op", JSON.stringify(o), "--actor-name", "ana"];

describe("patch reports what the op list changed in the diagnostics", () => {
  it("a one-attribute patch on a document of 1,500 claims prints a few lines", () => {
    const repo = tempRepo({ "claims.noma": claims(1500) });
    const r = runCli(["patch", "claims.noma", ...op({ op: "update_attribute", id: "c700", key: "confidence", value: 0.9 })], { cwd: repo });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toEqual([
      expect.stringMatching(/^applied 1 of 1 ops to claims\.noma \([0-9a-f]{8} → [0-9a-f]{8}\); validation: pre warn, post warn$/),
      "  1. update_attribute c700: applied",
      "diagnostics: 0 introduced, 0 resolved, 1,500 unchanged",
      "transcript: 1 record appended to claims.noma.patches",
    ]);
    expect(r.stdout).not.toContain("claim-without-evidence");
    expect(r.stdout).not.toContain("capability sidecar");
  });

  it("lists the diagnostics introduced and resolved, resolved ones where they were; json keeps both lists and the totals", () => {
    const repo = tempRepo({ "claims.noma": claims(20) });
    // An evidence block at the top resolves c9's warning and moves every claim down; a bad confidence on c3 is new.
    const r = runCli(["patch", "claims.noma", "--ops", "-", "--actor-name", "ana", "--format", "json"], {
      cwd: repo,
      input: JSON.stringify([
        { op: "add_block", parent: "claims", position: 0, content: '::evidence{for="c9"}\nMeasured.\n::' },
        { op: "update_attribute", id: "c3", key: "confidence", value: 7 },
      ]),
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.result.diagnostic_changes).toEqual({
      introduced: [expect.objectContaining({ code: "claim-invalid-confidence", nodeId: "c3", pos: { line: 19, column: 1 } })],
      resolved: [expect.objectContaining({ code: "claim-without-evidence", nodeId: "c9", pos: { line: 39, column: 1 } })],
      totals: { introduced: 1, resolved: 1, unchanged: 19, before: 20, after: 20 },
    });
    // The whole list is still there for machines.
    expect(out.result.diagnostics).toHaveLength(20);

    const repo2 = tempRepo({ "claims.noma": claims(20) });
    const t = runCli(["patch", "claims.noma", ...op({ op: "delete_block", id: "c4" })], { cwd: repo2 });
    expect(t.code).toBe(0);
    expect(t.stdout).toContain(
      [
        "diagnostics: 0 introduced, 1 resolved, 19 unchanged",
        "  resolved (where they were before the patch):",
        '    WARNING [claim-without-evidence] claims.noma:19:1: ::claim "c4" has no ::evidence or ::counterevidence pointing at it with for=. (lines 19-21)',
      ].join("\n"),
    );
  });

  it("a finding without an id is the same finding after the lines above it moved", () => {
    const doc = ["# Notes", "", '::note{id="n1"}', "First.", "::", "", "See [[nowhere]] for more.", ""].join("\n");
    const repo = tempRepo({ "d.noma": doc });
    const r = runCli(["patch", "d.noma", ...op({ op: "replace_body", id: "n1", content: "First.\nSecond.\nThird." })], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("diagnostics: 0 introduced, 0 resolved, 1 unchanged\n");
    // A broken link in the new body is new; the one below, moved up again, is not.
    const again = runCli(["patch", "d.noma", ...op({ op: "replace_body", id: "n1", content: "See [[elsewhere]]." })], { cwd: repo });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("diagnostics: 1 introduced, 0 resolved, 1 unchanged\n");
    expect(again.stdout).toContain("  introduced:\n    ERROR [broken-reference] d.noma:4:5: [[elsewhere]] points at an id that does not exist.\n");
  });

  it("prints at most ten of a list and says how many more", () => {
    const repo = tempRepo({ "claims.noma": claims(30) });
    const ops = Array.from({ length: 25 }, (_, i) => ({ op: "update_attribute", id: `c${i}`, key: "confidence", value: 3 }));
    const r = runCli(["patch", "claims.noma", "--ops", "-", "--actor-name", "ana"], { cwd: repo, input: JSON.stringify(ops) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("diagnostics: 25 introduced, 0 resolved, 30 unchanged\n  introduced:\n");
    expect(r.stdout.match(/claim-invalid-confidence/g)).toHaveLength(10);
    expect(r.stdout).toContain("    … and 15 more (--format json lists every one)\n");
  });

  it('says "no capability sidecar" only with --verbose', () => {
    const repo = tempRepo({ "claims.noma": claims(2) });
    const quiet = runCli(["patch", "claims.noma", ...op({ op: "update_attribute", id: "c0", key: "owner", value: "ana" })], { cwd: repo });
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).not.toContain("capability sidecar");
    const loud = runCli(["patch", "claims.noma", ...op({ op: "update_attribute", id: "c1", key: "owner", value: "ana" }), "--verbose"], { cwd: repo });
    expect(loud.code).toBe(0);
    expect(loud.stdout).toContain("  info: no capability sidecar (claims.noma.capabilities.yml): advisory only, nothing is enforced in v1.0\n");
    // The transcript is the protocol's record: its post_validation is the summary, as before.
    const records = readFileSync(join(repo, "claims.noma.patches"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records.map((x: { post_validation: string }) => x.post_validation)).toEqual(["warn", "warn"]);
  });
});
