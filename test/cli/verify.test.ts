/**
 * `noma-reconcile verify <dir>` (Annex C.4), spawned: the exact output format,
 * sorting, determinism, SKIP and FAIL lines, and exit codes 0 / 1 / 2.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-repo.js";
import { OURS, UPSTREAM, upstreamPresent, fixtureNames } from "../conformance/corpus.js";

function corpus(fixtures: Record<string, Record<string, string>>): string {
  const root = tempDir("nr-corpus-");
  for (const [dir, files] of Object.entries(fixtures)) {
    mkdirSync(join(root, dir), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, dir, name), text);
  }
  return root;
}

describe("verify", () => {
  it("passes our corpus: one PASS line per fixture, sorted, then the summary; exit 0", () => {
    const names = fixtureNames(OURS, ["invalid", "patch", "patch-error", "valid"]);
    const r = runCli(["verify", "fixtures/conformance"], { cwd: join(OURS, "../..") });
    expect(r.code).toBe(0);
    const expected = names.map((n) => `PASS  fixtures/conformance/${n}`).sort();
    expect(r.stdout).toBe(`${expected.join("\n")}\n\n${names.length} fixtures, ${names.length} passed\n`);
  });

  it("reports FAIL with a reason and SKIP for a fixture without input.noma; exit 1; deterministic", () => {
    const root = corpus({
      "valid/b-good": { "input.noma": "# B\n", "expected.ids.json": '{"canonical":["b"],"aliases":{}}' },
      "valid/a-bad": { "input.noma": "# A\n", "expected.ids.json": '{"canonical":["x"],"aliases":{}}' },
      "valid/c-empty": { "expected.ids.json": "{}" },
    });
    const r = runCli(["verify", root], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `FAIL  ${root}/valid/a-bad  — ids mismatch: got ["a"], expected ["x"]\nPASS  ${root}/valid/b-good\nSKIP  ${root}/valid/c-empty\n\n3 fixtures, 1 passed\n`,
    );
    expect(runCli(["verify", root], { cwd: root }).stdout).toBe(r.stdout);
  });

  it("prints paths as given, relative or with a trailing slash", () => {
    const root = corpus({ "valid/x": { "input.noma": "# X\n" } });
    expect(runCli(["verify", "."], { cwd: root }).stdout).toBe("PASS  ./valid/x\n\n1 fixture, 1 passed\n");
    expect(runCli(["verify", "valid/"], { cwd: root }).stdout).toBe("PASS  valid/x\n\n1 fixture, 1 passed\n");
  });

  it("exits 2 when the directory is missing or absent", () => {
    const root = tempDir();
    expect(runCli(["verify"], { cwd: root })).toMatchObject({ code: 2, stdout: "" });
    expect(runCli(["verify", "nope"], { cwd: root })).toMatchObject({ code: 2, stderr: expect.stringContaining("nope: no such directory") });
  });

  it.skipIf(!upstreamPresent)("passes the whole upstream corpus: 40 fixtures, 40 passed, exit 0", () => {
    const project = join(OURS, "../..");
    const arg = relative(project, UPSTREAM);
    const r = runCli(["verify", arg], { cwd: project });
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines.filter((l) => l.startsWith(`PASS  ${arg}/`))).toHaveLength(40);
    expect(r.stdout.endsWith("\n40 fixtures, 40 passed\n")).toBe(true);
  });
});
