/**
 * Repositories for the run-loop tests: one spec governing src/** and docs/**,
 * a valid .noma document, everything reconciled (cache and committed
 * snapshot), then optionally a drift; a generic scripted exec agent
 * (`agents/scripted.mjs <behavior.json>`) whose behaviour per iteration is a
 * JSON file in the repository; and `.norma/config.json`.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { repoTemplates } from "../../helpers/repo-templates.js";
import { git, tempRepo, writeTree, type Tree } from "../../helpers/temp-repo.js";
import { CLI, runCli } from "../../helpers/run-cli.js";
import type { RunResult } from "../../../src/runs/run-loop.js";

/** The reconciled bases (one per `extra`), built once per test file that imports this module and copied per runRepo. */
const templates = repoTemplates();

export const SPEC = ".notarai/app.spec.yaml";

export const SPEC_TEXT = `schema_version: "0.7"
intent: "A tiny app whose guide and code stay in step."
behaviors:
  - name: greets
    given: "a name"
    then: "it says hello to it"
artifacts:
  code:
    - path: "src/**"
  docs:
    - path: "docs/**"
`;

export const GUIDE = `---
title: Guide
---

# Guide

::decision{id="greeting" status="accepted"}
The app says hello.
::
`;

/**
 * The scripted exec agent: behaviour from a JSON file (per iteration under byIteration, per role under byRole),
 * read from the workspace (the run's worktree) unless its path is absolute. `workspace: {path: content}` writes
 * files straight into the workspace (an agent editing without our tools); `waitFor: <absolute path>` holds the agent
 * until that file exists (a gate the test opens: waiting for an event, not for a time).
 */
export const SCRIPTED_AGENT = `import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
const req = JSON.parse(readFileSync(0, "utf8"));
const all = JSON.parse(readFileSync(resolve(req.paths.repo_root, process.argv[2]), "utf8"));
const byRole = all.byRole?.[req.step.role] ?? all;
const b = byRole.byIteration?.[String(req.step.iteration)] ?? byRole;
if (b.sleepMs) await new Promise((r) => setTimeout(r, b.sleepMs));
while (b.waitFor && !existsSync(b.waitFor)) await new Promise((r) => setTimeout(r, 20));
for (const [name, content] of Object.entries(b.files ?? {})) {
  const p = join(req.paths.step_dir, name);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, typeof content === "string" ? content : JSON.stringify(content, null, 2));
}
for (const [name, target] of Object.entries(b.symlinks ?? {})) symlinkSync(target, join(req.paths.step_dir, name));
for (const [name, content] of Object.entries(b.workspace ?? {})) {
  const p = join(req.paths.repo_root, name);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
}
if (b.stderr) process.stderr.write(b.stderr);
process.stdout.write(b.stdout ?? JSON.stringify({ version: 1, status: b.status ?? "ok", summary: b.summary ?? req.step.role + " done", files: b.listed ?? Object.keys(b.files ?? {}), next_actions: [], errors: [] }));
process.exitCode = b.exit ?? 0;
`;

/**
 * A scripted exec agent that works through our MCP server, as a coding agent would: it spawns the
 * server the loop gives it (NORMA_MCP_COMMAND, also context.mcp_server of the request), lists the
 * tools, makes the scripted tools/call requests in order, records {argv, tools, results} in
 * files/mcp.json of its step, writes its scripted files and prints the AgentResponse.
 * Behaviour: `agents/<file>` as for SCRIPTED_AGENT, plus `calls: [{name, arguments}]`.
 */
export const MCP_AGENT = `import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
const req = JSON.parse(readFileSync(0, "utf8"));
const all = JSON.parse(readFileSync(join(req.paths.repo_root, process.argv[2]), "utf8"));
const byRole = all.byRole?.[req.step.role] ?? all;
const b = byRole.byIteration?.[String(req.step.iteration)] ?? byRole;
const argv = JSON.parse(process.env.NORMA_MCP_COMMAND);
const server = spawn(argv[0], argv.slice(1), { cwd: req.paths.repo_root, stdio: ["pipe", "pipe", "inherit"] });
const waiting = new Map();
let buf = "";
server.stdout.setEncoding("utf8");
server.stdout.on("data", (d) => {
  buf += d;
  for (let i = buf.indexOf("\\n"); i >= 0; i = buf.indexOf("\\n")) {
    const m = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    waiting.get(m.id)?.(m);
  }
});
let id = 0;
const rpc = (method, params) => new Promise((resolve) => {
  const n = ++id;
  waiting.set(n, resolve);
  server.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }) + "\\n");
});
await rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "scripted-agent", version: "1" } });
const tools = (await rpc("tools/list", {})).result.tools.map((t) => t.name);
const results = [];
for (const c of b.calls ?? []) results.push((await rpc("tools/call", c)).result);
server.stdin.end();
await new Promise((r) => server.on("close", r));
const files = { ...(b.files ?? {}), "files/mcp.json": { argv, context: req.context.mcp_server, tools, results } };
for (const [name, content] of Object.entries(files)) {
  const p = join(req.paths.step_dir, name);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, typeof content === "string" ? content : JSON.stringify(content, null, 2));
}
process.stdout.write(JSON.stringify({ version: 1, status: "ok", summary: b.summary ?? req.step.role + " done through MCP", files: Object.keys(files), next_actions: [], errors: [] }));
`;

/** A shell word: the text in single quotes (each `'` written as `'\''`). */
const shQuote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** What one behaviour (no byRole / byIteration left in it) does, as POSIX sh lines; the request is already read. */
function shBehaviour(b: Record<string, unknown>): string[] {
  const known = new Set(["files", "listed", "status", "summary", "stdout", "stderr", "exit"]);
  const unknown = Object.keys(b).filter((k) => !known.has(k));
  if (unknown.length > 0) throw new Error(`shAgent: ${unknown.join(", ")} not supported (use execAgent, the node agent)`);
  const files = (b["files"] ?? {}) as Record<string, unknown>;
  const lines: string[] = [];
  for (const [name, content] of Object.entries(files)) {
    const dir = name.includes("/") ? name.slice(0, name.lastIndexOf("/")) : "";
    if (dir !== "") lines.push(`mkdir -p "$NORMA_STEP_DIR"/${shQuote(dir)}`);
    const text = typeof content === "string" ? content : JSON.stringify(content, null, 2);
    lines.push(`printf '%s' ${shQuote(text)} > "$NORMA_STEP_DIR"/${shQuote(name)}`);
  }
  if (typeof b["stderr"] === "string" && b["stderr"] !== "") lines.push(`printf '%s' ${shQuote(b["stderr"])} >&2`);
  if (typeof b["stdout"] === "string") lines.push(`printf '%s' ${shQuote(b["stdout"])}`);
  else {
    // The response SCRIPTED_AGENT prints; the default summary names the step's role (NORMA_ROLE, a plain word).
    const ROLE = "\u0000role\u0000";
    const json = JSON.stringify({
      version: 1,
      status: b["status"] ?? "ok",
      summary: b["summary"] ?? `${ROLE} done`,
      files: b["listed"] ?? Object.keys(files),
      next_actions: [],
      errors: [],
    });
    lines.push(`printf '%s' ${json.split(JSON.stringify(ROLE).slice(1, -1)).map(shQuote).join('"$NORMA_ROLE"')}`);
  }
  lines.push(`exit ${Number(b["exit"] ?? 0)}`);
  return lines;
}

/** `case` over one variable: an arm per key, the rest (`*`) doing what `otherwise` does. */
function shCase(variable: string, arms: Record<string, unknown>, otherwise: () => string[], each: (b: Record<string, unknown>) => string[]): string[] {
  const lines = [`case "$${variable}" in`];
  for (const [key, b] of Object.entries(arms)) lines.push(`  ${shQuote(key)})`, ...each(b as Record<string, unknown>).map((l) => `    ${l}`), "    ;;");
  lines.push("  *)", ...otherwise().map((l) => `    ${l}`), "    ;;", "esac");
  return lines;
}

/**
 * SCRIPTED_AGENT's behaviour written out as a POSIX sh script (`shAgent`): the same files in the step directory
 * (NORMA_STEP_DIR), the same response on stdout, the same exit code, per role (NORMA_ROLE) and iteration
 * (NORMA_ITERATION) as `byRole` / `byIteration` choose — without a node process per step (≈ 0.05 s of CPU each).
 * Only what a static behaviour does: `sleepMs`, `waitFor`, `symlinks`, `workspace` need the node agent.
 */
export function scriptedShAgent(behavior: object): string {
  const all = behavior as Record<string, unknown>;
  const perIteration = (b: Record<string, unknown>): string[] => {
    const { byIteration, ...rest } = b as { byIteration?: Record<string, unknown> };
    return byIteration === undefined
      ? shBehaviour(rest)
      : shCase(
          "NORMA_ITERATION",
          byIteration,
          () => shBehaviour(rest),
          (x) => shBehaviour(x),
        );
  };
  const { byRole, ...rest } = all as { byRole?: Record<string, unknown> };
  // byRole's arm for a role, else the whole behaviour (as SCRIPTED_AGENT: `all.byRole?.[role] ?? all`).
  const body = byRole === undefined ? perIteration(all) : shCase("NORMA_ROLE", byRole, () => perIteration(rest), perIteration);
  // The request is read to its end, as SCRIPTED_AGENT reads it (the loop writes it, then closes stdin).
  return ["#!/bin/sh", "cat > /dev/null", ...body, ""].join("\n");
}

/** An exec agent running `agents/<script>`, a sh script written by `scriptedShAgent` (RunRepoOptions.shBehaviors). */
export function shAgent(script: string, extra: object = {}): object {
  return { type: "exec", cmd: ["sh", `agents/${script}`], timeout_ms: 30_000, ...extra };
}

export function cli(root: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCli(args, { cwd: root, env: { CI: "1", ...env } });
}

export interface RunRepoOptions {
  /** .norma/config.json (object), or null for none. */
  config?: object | null;
  /** Agent behaviours: file name (under agents/) → JSON. */
  behaviors?: Record<string, object>;
  /** Extra files committed with the base. */
  extra?: Tree;
  /** Agent behaviours as sh scripts (`scriptedShAgent`, run by `shAgent`): file name (under agents/) → the behaviour, as for `behaviors`. */
  shBehaviors?: Record<string, object>;
  /** Changed (committed) after reconciling: the drift. */
  drift?: Tree;
}

export function execAgent(behavior: string, extra: object = {}): object {
  return { type: "exec", cmd: ["node", "agents/scripted.mjs", `agents/${behavior}`], timeout_ms: 30_000, ...extra };
}

/** An exec agent that works through our MCP server (MCP_AGENT). */
export function mcpAgent(behavior: string, extra: object = {}): object {
  return { type: "exec", cmd: ["node", "agents/mcp-agent.mjs", `agents/${behavior}`], timeout_ms: 60_000, ...extra };
}

/** The base's files (with `extra`) committed on main. */
function baseFiles(extra: Tree): string {
  return tempRepo({
    [SPEC]: SPEC_TEXT,
    "src/app.ts": "export const greet = (n: string) => `hello ${n}`;\n",
    "docs/guide.noma": GUIDE,
    "agents/scripted.mjs": SCRIPTED_AGENT,
    "agents/mcp-agent.mjs": MCP_AGENT,
    ".gitignore": "ignored.log\n",
    ...extra,
  });
}

/** The marked files and the snapshot committed on top: the reconciled base. */
function commitReconciled(root: string): string {
  git(root, ["add", "-A"]);
  git(root, ["commit", "-qm", "reconciled"]);
  return root;
}

/** The reconciled base: the files (with `extra`) committed, marked reconciled, the snapshot written and committed — by the CLI, twice. */
function reconciledBase(extra: Tree): string {
  const root = baseFiles(extra);
  execFileSync(process.execPath, [CLI, "mark-reconciled", SPEC, "src/app.ts", "docs/guide.noma"], { cwd: root, stdio: "pipe" });
  execFileSync(process.execPath, [CLI, "state", "snapshot"], { cwd: root, stdio: "pipe" });
  return commitReconciled(root);
}

/**
 * The same base made in process: what `mark-reconciled SPEC src/app.ts docs/guide.noma` and `state snapshot`
 * call (the library), not two CLI processes (≈ 1 s of CPU per base). Set-up: no run test is about those two
 * commands, which are tested as processes in their own tests (test/cache, test/reconcile).
 */
async function reconciledBaseInProcess(extra: Tree): Promise<string> {
  const { markReconciled } = await import("../../../src/reconcile/mark-reconciled.js");
  const { snapshotState } = await import("../../../src/reconcile/snapshot-state.js");
  const root = baseFiles(extra);
  const marked = await markReconciled(root, { files: [SPEC, "src/app.ts", "docs/guide.noma"] });
  if (marked.updated !== 3 || marked.not_marked.length > 0) throw new Error(`the reconciled base: ${JSON.stringify(marked)}`);
  await snapshotState(root);
  return commitReconciled(root);
}

const baseKey = (extra: Tree): string =>
  `run-repo:${JSON.stringify(Object.entries(extra).map(([k, v]) => [k, typeof v === "string" ? v : [v.toString("base64")]]))}`;

/** The behaviours, the configuration and the drift committed on top of a copy of the base. */
function onBase(root: string, o: RunRepoOptions): string {
  const more: Tree = {};
  for (const [name, b] of Object.entries(o.behaviors ?? {})) more[`agents/${name}`] = JSON.stringify(b);
  for (const [name, b] of Object.entries(o.shBehaviors ?? {})) more[`agents/${name}`] = scriptedShAgent(b);
  if (o.config !== undefined && o.config !== null) more[".norma/config.json"] = JSON.stringify(o.config, null, 2);
  if (o.drift !== undefined) Object.assign(more, o.drift);
  if (Object.keys(more).length > 0) {
    writeTree(root, more);
    git(root, ["add", "-A"]);
    git(root, ["commit", "-qm", "drift and agents"]);
  }
  return root;
}

/**
 * A fresh repository (removed when the test finishes): a copy of the reconciled base (built once per file and
 * `extra`: the CLI runs twice to build one; commit dates are fixed, so a copy holds the very commits a fresh build
 * would), then the agents' behaviours, the configuration and the drift committed on top.
 */
export function runRepo(o: RunRepoOptions = {}): string {
  return onBase(
    templates.copy(baseKey(o.extra ?? {}), () => reconciledBase(o.extra ?? {})),
    o,
  );
}

/** `runRepo`, its base (when not built yet) made in process, not by the CLI: the same repository. */
export async function runRepoAsync(o: RunRepoOptions = {}): Promise<string> {
  return onBase(await templates.copyAsync(baseKey(o.extra ?? {}), () => reconciledBaseInProcess(o.extra ?? {})), o);
}

/**
 * A run a test starts from, not the one it is about (the runs `runs list`, `runs prune` … then work on): the loop
 * in process, as `run --spec SPEC [--max-iterations N] [--apply]` drives it (runLoop, then applyRun when it passed
 * and `apply`), in the environment `cli` gives the CLI. Saves the CLI's start-up per run; a test whose subject is a
 * run spawns the CLI (`cli(root, ["run", …])`).
 */
export async function runForSetUp(root: string, o: { maxIterations?: number; apply?: boolean } = {}): Promise<RunResult> {
  const { runLoop } = await import("../../../src/runs/run-loop.js");
  const { applyRun } = await import("../../../src/runs/apply-run.js");
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", CI: "1" };
  delete env["GITHUB_STEP_SUMMARY"];
  delete env["GITHUB_OUTPUT"];
  const r = await runLoop({ root, specs: [SPEC], ac: [], mark: true, env, ...(o.maxIterations !== undefined ? { maxIterations: o.maxIterations } : {}) });
  if (o.apply === true && r.status === "passed") {
    const a = await applyRun(root, r.run_id, { env });
    if (a.outcome !== "applied") throw new Error(`runForSetUp: run ${r.run_id} not applied: ${a.message}`);
  }
  return r;
}

/** A unified diff replacing one line of a file (enough for the tests' patches). */
export function lineDiff(path: string, oldLine: string, newLine: string, lineNo = 1, total = 1): string {
  return [`--- a/${path}`, `+++ b/${path}`, `@@ -${lineNo},${total} +${lineNo},${total} @@`, `-${oldLine}`, `+${newLine}`, ""].join("\n");
}

/** Every file under root (except .git, .norma and — unless keepCache — the local hash cache .notarai/.cache): path → bytes, mode, or link target. */
export function treeSnapshot(root: string, options: { keepCache?: boolean } = {}): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, rel: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`;
      if (r === ".git" || r === ".norma" || (r === ".notarai/.cache" && options.keepCache !== true)) continue;
      const p = join(dir, e.name);
      if (e.isSymbolicLink()) out.set(r, `link:${readlinkSync(p)}`);
      else if (e.isDirectory()) {
        out.set(`${r}/`, "dir");
        walk(p, r);
      } else out.set(r, `${(lstatSync(p).mode & 0o777).toString(8)}:${readFileSync(p).toString("base64")}`);
    }
  };
  walk(root, "");
  return out;
}

export function runIds(root: string): string[] {
  const d = join(root, ".norma/runs");
  return existsSync(d) ? readdirSync(d).sort() : [];
}

export function stepDirs(root: string, runId: string): string[] {
  return readdirSync(join(root, ".norma/runs", runId, "steps")).sort();
}

export function readJson(root: string, rel: string): any {
  return JSON.parse(readFileSync(join(root, rel), "utf8"));
}

/** The run's worktree (the default place, `.norma/worktrees/<id>`). */
export function worktreeOf(root: string, runId: string): string {
  return join(root, ".norma/worktrees", runId);
}

/**
 * A fingerprint of the user's checkout: every file outside .git/ and .norma/ (bytes, mode, link target),
 * `git status` (run state in .norma/ left out), the index's entries (`git ls-files --stage`: what the index
 * holds, not its stat cache), the stash list and HEAD (the commit and the branch). Equal before and after
 * a run: the run touched nothing of it.
 */
export function checkoutFingerprint(root: string): { hash: string; parts: Record<string, string> } {
  const files = [...treeSnapshot(root, { keepCache: true })].map(([p, v]) => `${p}\0${v}`).join("\n");
  const parts: Record<string, string> = {
    files: createHash("sha256").update(files).digest("hex"),
    status: git(root, ["status", "--porcelain=v1", "--untracked-files=all", "--ignored=matching"])
      .split("\n")
      .filter((l) => !l.slice(3).startsWith(".norma/"))
      .join("\n"),
    index: git(root, ["ls-files", "--stage"]),
    stash: git(root, ["stash", "list", "--format=%H %gs"]),
    head: `${git(root, ["rev-parse", "HEAD"]).trim()} ${git(root, ["symbolic-ref", "-q", "HEAD"]).trim()}`,
  };
  return { hash: createHash("sha256").update(JSON.stringify(parts)).digest("hex"), parts };
}
