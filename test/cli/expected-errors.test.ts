/**
 * Every error class the CLI can raise for an expected condition — the user's input, their
 * repository or environment, another process holding a lock — triggered through the real CLI:
 * exit 2, the class's message, no stack trace, never "internal error … This is a bug"
 * (every class is a NomaError of kind usage or expected, src/errors/noma-error.ts; the CLI maps
 * kinds to exit codes in src/cli/exit-code.ts). One row per class.
 */
import { readFileSync, symlinkSync, mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { tempDir, type Tree } from "../helpers/temp-repo.js";

/** Each row's repository: a copy of one built once per tree (test/helpers/repo-templates.ts). */
const tempRepo = repoTemplates().repo;

const SPEC = `schema_version: "0.7"
intent: "A tiny app."
behaviors:
  - name: greets
    given: "a name"
    then: "it says hello to it"
artifacts:
  code:
    - path: "src/**"
`;
const DOC = '::claim{id="c1" confidence=0.5}\nBody.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';
const OP = '{"op":"update_attribute","id":"c1","key":"confidence","value":0.9}';
const BASE: Tree = { ".notarai/app.spec.yaml": SPEC, "src/a.ts": "export const a = 1;\n", "d.noma": DOC };

/** This process's start time as /proc shows it (Linux), or undefined. */
function procStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** A lock file naming this (live) test process as its owner. */
function heldByUs(): string {
  return JSON.stringify({
    pid: process.pid,
    host: hostname(),
    token: "held-by-the-test",
    created: Date.now(),
    start: procStart(process.pid),
    cmd: "vitest (the test)",
  });
}

interface Row {
  /** The error class the row triggers. */
  error: string;
  args: string[];
  /** Files of the repository (committed), beyond BASE. */
  tree?: Tree;
  /** Changes made after the commit (a corrupt index, links, directories). */
  after?: (repo: string) => void;
  /** Run outside any repository. */
  outside?: boolean;
  env?: NodeJS.ProcessEnv;
  stderr: RegExp;
}

const ROWS: Row[] = [
  { error: "UsageError", args: ["patch", "d.noma"], stderr: /give exactly one of --op/ },
  {
    error: "UsageError (--lock-timeout)",
    args: ["patch", "d.noma", "--op", OP, "--lock-timeout", "soon"],
    stderr: /--lock-timeout expects a number of seconds from 0 to 3600; got "soon"/,
  },
  { error: "RuntimeError", args: ["mark-reconciled", "src/a.ts"], outside: true, stderr: /not inside a git repository/ },
  {
    error: "ConfigError",
    args: ["check"],
    tree: { ".notarai/config.yaml": "drift: maybe\n" },
    stderr: /\.notarai\/config\.yaml:1:8: error: drift: expected one of "warning", "error"/,
  },
  {
    error: "ConfigError (lock_timeout)",
    args: ["check"],
    tree: { ".notarai/config.yaml": "lock_timeout: -1\n" },
    stderr: /\.notarai\/config\.yaml:1:15: error: lock_timeout: expected a number of seconds from 0 to 3600, found -1/,
  },
  {
    error: "CacheWriteError",
    args: ["mark-reconciled", "src/a.ts"],
    after: (r) => writeFileSync(join(r, ".notarai/.cache"), "not a directory"),
    stderr: /cannot create/,
  },
  {
    error: "SymlinkEscapeError",
    args: ["mark-reconciled", "src/a.ts"],
    after: (r) => symlinkSync(tempDir(), join(r, ".notarai/.cache")),
    stderr: /\.notarai\/\.cache is a symbolic link to .*outside the repository/,
  },
  {
    error: "SymlinkNotAllowedError",
    args: ["patch", "d.noma", "--op", OP],
    after: (r) => symlinkSync("/nonexistent/elsewhere", join(r, "d.noma.patches")),
    stderr: /d\.noma\.patches is a symbolic link to \/nonexistent\/elsewhere; a transcript must be a regular file/,
  },
  { error: "PathOutsideRepoError", args: ["patch", "../elsewhere.noma", "--op", OP], stderr: /\.\.\/elsewhere\.noma: path is outside the repository/ },
  {
    error: "CiBaseError",
    args: ["ci"],
    env: { GITHUB_EVENT_PATH: "/nonexistent/event.json" },
    stderr: /cannot read the GitHub event file \/nonexistent\/event\.json/,
  },
  { error: "GitRefError", args: ["affected", "--base", "no-such-branch"], stderr: /unknown ref "no-such-branch"/ },
  { error: "McpJsonError", args: ["init"], tree: { ".mcp.json": "{bad" }, stderr: /\.mcp\.json:1:2: not valid JSON/ },
  {
    error: "RunConfigError",
    args: ["run", "--spec", ".notarai/app.spec.yaml"],
    tree: { ".norma/config.json": '{"agents":{"plan":{"type":"nope"}}}' },
    stderr: /invalid \.norma\/config\.json:/,
  },
  {
    error: "NormaDbError",
    args: ["runs", "list"],
    after: (r) => (mkdirSync(join(r, ".norma")), writeFileSync(join(r, ".norma/norma.db"), "not a database")),
    stderr: /\.norma\/norma\.db is not a readable SQLite database/,
  },
  { error: "RunSetupError", args: ["run", "--resume", "20260101-000000-abcdef"], stderr: /no run 20260101-000000-abcdef in \.norma\/norma\.db/ },
  {
    error: "RunLockedError",
    args: ["run", "--spec", ".notarai/app.spec.yaml"],
    after: (r) => (mkdirSync(join(r, ".norma/locks"), { recursive: true }), writeFileSync(join(r, ".norma/locks/run.lock"), heldByUs())),
    stderr: new RegExp(`another run is in progress in this repository: \\.norma/locks/run\\.lock is held by pid ${process.pid}`),
  },
  { error: "DocumentMissingError", args: ["patch", "missing.noma", "--op", OP], stderr: /missing\.noma: no such document/ },
  {
    error: "MalformedOpError",
    args: ["patch", "d.noma", "--op", `{"op":"update_attribute","id":"c1","key":"k","value":${"[".repeat(80)}${"]".repeat(80)}}`],
    stderr: /invalid_content: op: .* nested at most 64 levels deep/,
  },
  {
    error: "ReconcileError",
    args: ["diff", "--spec", ".notarai/nope.spec.yaml", "--base", "main"],
    stderr: /\.notarai\/nope\.spec\.yaml: not a spec file of this repository/,
  },
  { error: "AcceptRefusedError", args: ["transcript", "accept", "d.noma", "--reason", "fixed by hand"], stderr: /d\.noma has no transcript/ },
  {
    error: "LockTimeoutError",
    args: ["patch", "d.noma", "--op", OP, "--lock-timeout", "0"],
    after: (r) => writeFileSync(join(r, ".d.noma.lock"), heldByUs()),
    stderr: new RegExp(
      `timed out after 0 s waiting for the lock .*\\.d\\.noma\\.lock: held by pid ${process.pid} on .* \\(vitest \\(the test\\)\\) since .* ago\\); wait for it to finish, or, if it is hung, end it \\(kill ${process.pid}\\); delete .* only if no such process exists`,
    ),
  },
  // git fails (a corrupt index): before, the CLI exited with git's own status, 128.
  {
    error: "GitError",
    args: ["init", "--hooks"],
    after: (r) => writeFileSync(join(r, ".git/index"), "not an index at all"),
    stderr: /git ls-files .* failed \(exit 128\): fatal: .*index/,
  },
  { error: "WorkspaceError", args: ["archive", "restore", "src/a.ts"], stderr: /src\/a\.ts: no archived version under archive\// },
  // A file that is not a regular file: the transcript path is a directory (refused before it is opened).
  {
    error: "FileUnreadableError",
    args: ["patch", "d.noma", "--op", OP],
    after: (r) => mkdirSync(join(r, "d.noma.patches")),
    stderr: /^noma-reconcile: d\.noma\.patches: cannot be read: it is a directory, not a regular file\n/,
  },
];

describe("expected conditions: one message, exit 2, no stack trace", () => {
  it.each(ROWS.map((r) => [r.error, r] as const))("%s", (_name, row) => {
    const cwd = row.outside === true ? tempDir() : tempRepo({ ...BASE, ...row.tree });
    row.after?.(cwd);
    const r = runCli(row.args, { cwd, ...(row.env !== undefined ? { env: row.env } : {}) });
    expect(r.stderr).toMatch(row.stderr);
    expect(r.stderr).not.toMatch(/internal error|This is a bug/);
    // No stack frame ("    at fn (file:line:col)") anywhere.
    expect(r.stderr).not.toMatch(/^\s+at .+[(:]\d+/m);
    expect(r.code, r.stderr).toBe(2);
  });
});
