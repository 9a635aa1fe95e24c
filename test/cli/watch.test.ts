/**
 * `check --watch` and `fmt --check --watch` through the real CLI (dist/cli.cjs) in real
 * repositories: the first report, then a change written (by rename, as editors save) and the
 * re-run's output read line by line until its status line, asserted whole; SIGTERM and SIGINT
 * end the process with status 0. Event-driven throughout: every wait is for a line of output
 * (under one generous overall timeout), never for a length of time.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import * as z from "zod/mini";
import { outputSchema } from "../../src/internal.js";
import { CLI, runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const LONG = 60_000;

/** The CLI running in `cwd`, its stdout read as lines. */
class Watching {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffered = "";
  private readonly lines: string[] = [];
  private waiter: (() => void) | undefined;
  stderr = "";
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: string[], cwd: string) {
    this.child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
    this.child.stdout.setEncoding("utf8").on("data", (s: string) => {
      this.buffered += s;
      const parts = this.buffered.split("\n");
      this.buffered = parts.pop()!;
      this.lines.push(...parts);
      this.waiter?.();
    });
    this.child.stderr.setEncoding("utf8").on("data", (s: string) => {
      this.stderr += s;
      this.waiter?.();
    });
    this.exited = new Promise((resolve) => this.child.on("close", (code, signal) => resolve({ code, signal })));
    this.exited.then(() => this.waiter?.());
    onTestFinished(() => {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    });
  }

  /** The lines printed from now up to and including the first that `last` matches. */
  async until(last: RegExp): Promise<string[]> {
    for (;;) {
      const at = this.lines.findIndex((l) => last.test(l));
      if (at >= 0) return this.lines.splice(0, at + 1);
      if (this.child.exitCode !== null)
        throw new Error(`the CLI exited (${this.child.exitCode}) before /${last.source}/: ${this.lines.join("\n")}\n${this.stderr}`);
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  /** Wait until stderr holds `text`. */
  async untilStderr(text: string): Promise<void> {
    while (!this.stderr.includes(text)) {
      if (this.child.exitCode !== null) throw new Error(`the CLI exited (${this.child.exitCode}) before stderr said ${text}: ${this.stderr}`);
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  /** Send `signal`; the exit status and what was printed meanwhile. */
  async stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; rest: string[] }> {
    this.child.kill(signal);
    const end = await this.exited;
    return { ...end, rest: [...this.lines, ...(this.buffered !== "" ? [this.buffered] : [])] };
  }
}

/** Replace `rel` in `repo` as an editor saves: the new text written beside the repository, then renamed over the file. */
function save(repo: string, rel: string, text: string): void {
  const tmp = join(dirname(repo), `${repo.split("/").pop()}-save.tmp`);
  writeFileSync(tmp, text);
  mkdirSync(dirname(join(repo, rel)), { recursive: true });
  renameSync(tmp, join(repo, rel));
}

const BROKEN = "# A\n\nSee [[nowhere]].\n";
const CLEAN = "# A\n\nFine.\n";

describe("check --watch", () => {
  it("prints the report, then per re-run only the new and fixed findings and a status line; SIGTERM exits 0", { timeout: LONG }, async () => {
    const repo = tempRepo({ "a.noma": BROKEN, "docs/b.noma": CLEAN });
    const w = new Watching(["check", "--watch"], repo);
    expect(await w.until(/^watching: /)).toEqual([
      "ERROR [broken-reference] a.noma:3:5: [[nowhere]] points at an id that does not exist.",
      "watching: 1 error, 0 warnings in 2 files; Ctrl-C stops",
    ]);
    // A change in a subdirectory: a new finding there.
    save(repo, "docs/b.noma", "# B\n\nSee [[gone]].\n");
    expect(await w.until(/ changed: /)).toEqual([
      "new   ERROR [broken-reference] docs/b.noma:3:5: [[gone]] points at an id that does not exist.",
      "docs/b.noma changed: 1 new; now 2 errors, 0 warnings in 2 files",
    ]);
    // A fix: said as fixed, with where the finding was.
    save(repo, "a.noma", CLEAN);
    expect(await w.until(/ changed: /)).toEqual([
      "fixed ERROR [broken-reference] a.noma:3:5: [[nowhere]] points at an id that does not exist.",
      "a.noma changed: 1 fixed; now 1 error, 0 warnings in 2 files",
    ]);
    // A line inserted above a finding moves it: not new, not fixed.
    save(repo, "docs/b.noma", "# B\n\nIntro.\n\nSee [[gone]].\n");
    expect(await w.until(/ changed: /)).toEqual(["docs/b.noma changed: no new or fixed findings; now 1 error, 0 warnings in 2 files"]);
    const end = await w.stop("SIGTERM");
    expect(end).toEqual({ code: 0, signal: null, rest: [] });
    expect(w.stderr).toBe("");
  });

  it("a run that fails (a configuration that no longer parses) is said on stderr and the loop goes on; a deleted file's findings are fixed", {
    timeout: LONG,
  }, async () => {
    const repo = tempRepo({ "a.noma": BROKEN, "b.noma": CLEAN });
    const w = new Watching(["check", "--watch"], repo);
    expect(await w.until(/^watching: /)).toEqual([
      "ERROR [broken-reference] a.noma:3:5: [[nowhere]] points at an id that does not exist.",
      "watching: 1 error, 0 warnings in 2 files; Ctrl-C stops",
    ]);
    save(repo, ".notarai/config.yaml", "exclude: [\n");
    await w.untilStderr("noma-reconcile: invalid configuration:\n.notarai/config.yaml:2:1: error: not valid YAML");
    save(repo, ".notarai/config.yaml", "exclude: []\n");
    expect(await w.until(/ changed: /)).toEqual([".notarai/config.yaml changed: no new or fixed findings; now 1 error, 0 warnings in 2 files"]);
    rmSync(join(repo, "a.noma"));
    expect(await w.until(/ changed: /)).toEqual([
      "fixed ERROR [broken-reference] a.noma:3:5: [[nowhere]] points at an id that does not exist.",
      "a.noma changed: 1 fixed; now 0 errors, 0 warnings in 1 file",
    ]);
    expect(await w.stop("SIGTERM")).toEqual({ code: 0, signal: null, rest: [] });
  });

  it("--format json: one check envelope per run, valid against its schema, with what changed under result.watch; SIGINT exits 0", {
    timeout: LONG,
  }, async () => {
    const repo = tempRepo({ "a.noma": BROKEN });
    const w = new Watching(["check", "--watch", "--format", "json"], repo);
    const schema = outputSchema("check");
    const [first] = await w.until(/^\{/);
    const one = JSON.parse(first!) as Record<string, any>;
    expect(z.safeParse(schema, one).success).toBe(true);
    expect(one["ok"]).toBe(false);
    expect(one["summary"]).toEqual({ files: 1, errors: 1, warnings: 0, infos: 0 });
    expect(one["result"]["watch"]).toEqual({ run: 0, changed: [], new: [], fixed: [] });
    save(repo, "a.noma", CLEAN);
    const [second] = await w.until(/^\{/);
    const two = JSON.parse(second!) as Record<string, any>;
    expect(z.safeParse(schema, two).success).toBe(true);
    expect(two["ok"]).toBe(true);
    expect(two["summary"]).toEqual({ files: 1, errors: 0, warnings: 0, infos: 0 });
    expect(two["result"]["files"]).toEqual([{ file: "a.noma", diagnostics: [] }]);
    expect(two["result"]["watch"]).toEqual({
      run: 1,
      changed: ["a.noma"],
      new: [],
      fixed: [one["result"]["files"][0]],
    });
    expect(await w.stop("SIGINT")).toEqual({ code: 0, signal: null, rest: [] });
    expect(w.stderr).toBe("");
  });

  it("refuses what it cannot watch: --staged, --fix, a one-off format, a path outside the repository", () => {
    const repo = tempRepo({ "a.noma": CLEAN });
    const outside = join(tempDir(), "x.noma");
    writeFileSync(outside, CLEAN);
    const cases: Array<[string[], string]> = [
      [["--staged"], "--watch re-judges the work tree on change; --staged judges the index once: give one of them"],
      [["--fix"], "--watch only reports; run --fix (or --fix-dry-run) on its own"],
      [["--format", "sarif"], "--watch prints text or one JSON line per run; --format sarif is a one-off report"],
      [[outside], `--watch watches the repository; ${outside} is outside it`],
    ];
    for (const [args, message] of cases) {
      const r = runCli(["check", "--watch", ...args], { cwd: repo });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(message);
    }
  });
});

const MESSY = "# A\nFine.\n";

describe("fmt --check --watch", () => {
  it("says which documents became unformatted or formatted again; writes nothing; SIGTERM exits 0", { timeout: LONG }, async () => {
    const repo = tempRepo({ "a.noma": CLEAN, "docs/b.noma": MESSY });
    const w = new Watching(["fmt", "--check", "--watch"], repo);
    expect(await w.until(/^watching: /)).toEqual(["would reformat docs/b.noma", "watching: 2 documents, 1 would be reformatted; Ctrl-C stops"]);
    save(repo, "a.noma", MESSY);
    expect(await w.until(/ changed: /)).toEqual(["would reformat a.noma", "a.noma changed: now 2 documents, 2 would be reformatted"]);
    save(repo, "docs/b.noma", CLEAN);
    expect(await w.until(/ changed: /)).toEqual(["now formatted docs/b.noma", "docs/b.noma changed: now 2 documents, 1 would be reformatted"]);
    expect(await w.stop("SIGTERM")).toEqual({ code: 0, signal: null, rest: [] });
    expect(w.stderr).toBe("");
  });

  it("--format json: one fmt envelope per run, valid against its schema", { timeout: LONG }, async () => {
    const repo = tempRepo({ "a.noma": CLEAN });
    const w = new Watching(["fmt", "--check", "--watch", "--format", "json"], repo);
    const schema = outputSchema("fmt");
    const one = JSON.parse((await w.until(/^\{/))[0]!) as Record<string, any>;
    expect(z.safeParse(schema, one).success).toBe(true);
    expect(one["command"]).toBe("fmt --check --watch");
    expect(one["result"]).toEqual({
      check: true,
      files: [{ file: "a.noma", status: "unchanged" }],
      watch: { run: 0, changed: [], would_format: [], formatted: [] },
    });
    save(repo, "a.noma", MESSY);
    const two = JSON.parse((await w.until(/^\{/))[0]!) as Record<string, any>;
    expect(z.safeParse(schema, two).success).toBe(true);
    expect(two["ok"]).toBe(false);
    expect(two["result"]["watch"]).toEqual({ run: 1, changed: ["a.noma"], would_format: ["a.noma"], formatted: [] });
    expect(await w.stop("SIGTERM")).toEqual({ code: 0, signal: null, rest: [] });
  });

  it("needs --check, and takes no --diff", () => {
    const repo = tempRepo({ "a.noma": CLEAN });
    const r = runCli(["fmt", "--watch"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--watch needs --check: fmt --watch would rewrite the documents as you type them");
    const d = runCli(["fmt", "--check", "--watch", "--diff"], { cwd: repo });
    expect(d.code).toBe(2);
    expect(d.stderr).toContain("--watch says which documents became (un)formatted; drop --diff");
  });
});
