/**
 * One-shot commands set V8 flags for a short run (src/cli/startup/prepare-short-run-jit.ts): the
 * output must be the same with V8's defaults (NOMA_RECONCILE_JIT=default), V8 must know
 * every flag, and the collector flag that matters most must take effect when set mid-run. The document is
 * large enough (~1 MB) for V8 to optimize the parser and the validator during the run, and
 * holds findings of many rules.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SHORT_RUN_JIT_MIN_CHARS, SHORT_RUN_V8_FLAGS, shortRunJitBeforeParse } from "../../../src/cli/startup/prepare-short-run-jit.js";
import { runCli } from "../../helpers/run-cli.js";
import { tempRepo } from "../../helpers/temp-repo.js";

function bigDocument(): string {
  const parts = ["---\ntitle: JIT\nprofile: research\n---\n\n# Root\n"];
  for (let i = 0; i < 2500; i++) {
    parts.push(
      [
        `## Part ${i} {id="s${i}"}`,
        "",
        `Text with [[c${i}]] and [[missing-${i % 50}]] and \`[[not-a-link]]\`.`,
        "",
        `::claim{id="c${i}"${i % 3 === 0 ? "" : ` confidence=0.${i % 10}`}}`,
        "A claim.",
        "::",
        "",
        i % 4 === 0 ? `::evidence{id="e${i}" for="c${i}"}\nIt holds.\n::\n` : `::risk{id="r${i}"${i % 2 === 0 ? ' owner="ops"' : ""}}\nA risk.\n::\n`,
        `::dataset{id="d${i}"}\nschema:\n  a: string\nrows:\n  - [x]\n::`,
        `::plot{dataset="d${i}" column="${i % 5 === 0 ? "b" : "a"}"}\n::`,
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "",
      ].join("\n"),
    );
  }
  return parts.join("\n");
}

describe("short-run JIT flags", () => {
  it("check and patch print the same with and without them", () => {
    const repo = tempRepo({ "big.noma": bigDocument() });
    const tuned = runCli(["check", "big.noma", "--format", "json"], { cwd: repo });
    const plain = runCli(["check", "big.noma", "--format", "json"], { cwd: repo, env: { NOMA_RECONCILE_JIT: "default" } });
    expect(tuned.code).toBe(1);
    expect(JSON.parse(tuned.stdout).summary.errors).toBeGreaterThan(100);
    expect(tuned.stdout).toBe(plain.stdout);
    expect(tuned.code).toBe(plain.code);
    // V8 reports a flag it does not know on stderr ("unrecognized flag") and goes on.
    expect(tuned.stderr).not.toMatch(/flag/i);
    const op = JSON.stringify({ op: "update_attribute", id: "c1200", key: "confidence", value: 2 });
    const args = ["patch", "big.noma", "--op", op, "--dry-run", "--format", "json", "--actor-name", "t"];
    const a = runCli(args, { cwd: repo });
    const b = runCli(args, { cwd: repo, env: { NOMA_RECONCILE_JIT: "default" } });
    expect(a.code).toBe(0);
    const strip = (s: string): unknown =>
      JSON.parse(s.replace(/"(elapsed_ms)": ?[0-9.e-]+/g, '"$1":0').replace(/"(ts|op_id|entry_sha256)": ?"[^"]*"/g, '"$1":""'));
    expect(strip(a.stdout)).toEqual(strip(b.stdout));
  });
});

describe("the short-run V8 flags", () => {
  it("are all flags this Node's V8 knows", () => {
    const known = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8", maxBuffer: 1 << 24 }).stdout;
    for (const flag of SHORT_RUN_V8_FLAGS) {
      const name = flag.replace(/^--(no-)?/, "").replace(/=.*$/, "");
      expect(known, flag).toMatch(new RegExp(`^\\s+--${name} `, "m"));
    }
  });

  it("keep the young generation at its size when set after start-up, as the CLI sets them", () => {
    // Keep 300,000 small objects alive: V8's defaults grow the young generation (to 16 MB
    // per semi-space here); with the flags set mid-run it stays at its start-up size.
    const script = `
      const v8 = require("node:v8");
      if (process.argv[1] === "on") v8.setFlagsFromString(process.argv[2]);
      const before = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
      const keep = [];
      for (let i = 0; i < 300000; i++) keep.push({ a: i, b: [i] });
      const after = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
      process.stdout.write(JSON.stringify({ before, after, kept: keep.length }));`;
    const run = (mode: string): { before: number; after: number } => {
      const r = spawnSync(process.execPath, ["-e", script, mode, SHORT_RUN_V8_FLAGS.join(" ")], { encoding: "utf8" });
      expect(r.stderr).toBe("");
      return JSON.parse(r.stdout) as { before: number; after: number };
    };
    const on = run("on");
    const off = run("off");
    expect(off.after).toBeGreaterThan(off.before * 2);
    expect(on.after).toBeLessThanOrEqual(on.before * 2);
    expect(on.after * 4).toBeLessThanOrEqual(off.after);
  });
});

describe("when the short-run flag is set", () => {
  it("only once the documents about to be parsed add up to the threshold, once, never under NOMA_RECONCILE_JIT=default", () => {
    const calls: string[] = [];
    const hook = shortRunJitBeforeParse({}, () => calls.push("applied"));
    hook(150);
    hook(SHORT_RUN_JIT_MIN_CHARS - 200);
    expect(calls).toEqual([]);
    hook(50);
    expect(calls).toEqual(["applied"]);
    hook(SHORT_RUN_JIT_MIN_CHARS * 4);
    expect(calls).toEqual(["applied"]);
    const off = shortRunJitBeforeParse({ NOMA_RECONCILE_JIT: "default" }, () => calls.push("off"));
    off(SHORT_RUN_JIT_MIN_CHARS * 10);
    expect(calls).toEqual(["applied"]);
    const big = shortRunJitBeforeParse({}, () => calls.push("big"));
    big(SHORT_RUN_JIT_MIN_CHARS);
    expect(calls).toEqual(["applied", "big"]);
  });
});
