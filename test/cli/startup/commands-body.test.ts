/**
 * The shared body of the less frequent commands (dist/bodies/commands.cjs, src/cli/bodies/commands-body.ts),
 * compiled through the compile cache with one cache file per command: the real CLI, spawned, for
 * each command the body runs. For each: the output is the same with the cache off (the command's
 * ES module), on its first run (compiled from source, its cache file written) and on a run from
 * that cache (accepted by V8: the file is not replaced). mark-reconciled and state snapshot set
 * SQLite's WebAssembly tiering flag, after which V8 would refuse new code: their cache is the one
 * taken right before the flag changed.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "../../../src/cli/bodies/commands-body.js";
import { cachePayload } from "../../../src/cli/startup/load-cached-body.js";
import { runCli } from "../../helpers/run-cli.js";
import { git } from "../../helpers/temp-repo.js";

const DOC = `---\ntitle: Cache\n---\n\n# Cache {id="top"}\n\nSee [[nowhere]].\n\n::claim{id="c1" confidence=0.7}\nA claim.\n::\n`;
const SPEC =
  'schema_version: "0.7"\nintent: All.\nbehaviors:\n  - name: all\n    given: a change\n    then: reconciled\nartifacts:\n  code:\n    - path: "src/**"\n';

/** Each command of the shared body, with arguments that give it work to do in the repository below. */
const RUNS: Array<[keyof typeof commands, string[]]> = [
  ["transcript", ["transcript", "verify", "doc.noma", "--format", "json"]],
  ["init", ["init", "--dry-run"]],
  ["mark-reconciled", ["mark-reconciled", "src/a.ts"]],
  ["schema", ["schema", "patch-op"]],
  ["state", ["state", "snapshot"]],
  ["ci", ["ci", "--base", "main", "--format", "json"]],
  ["governs", ["governs", "src/a.ts", "doc.noma"]],
  ["specs", ["specs", "validate", "--format", "json"]],
  ["coverage", ["coverage"]],
  ["verify", ["verify", "corpus"]],
  ["fmt", ["fmt", "--check", "doc.noma", "--format", "json"]],
  ["ids", ["ids", "doc.noma", "--format", "json"]],
  ["parse", ["parse", "doc.noma"]],
  ["cache", ["cache", "status"]],
];

let base: string;
let repo: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "nr-commands-body-"));
  repo = join(base, "repo");
  mkdirSync(join(repo, ".notarai"), { recursive: true });
  mkdirSync(join(repo, "src"));
  mkdirSync(join(repo, "corpus/valid"), { recursive: true });
  git(repo, ["init", "-q", "-b", "main"]);
  git(repo, ["config", "user.name", "Test"]);
  git(repo, ["config", "user.email", "test@example.invalid"]);
  writeFileSync(join(repo, ".notarai/all.spec.yaml"), SPEC);
  writeFileSync(join(repo, "src/a.ts"), "export const a = 1;\n");
  writeFileSync(join(repo, "notes.txt"), "ungoverned\n");
  writeFileSync(join(repo, "doc.noma"), DOC);
  writeFileSync(join(repo, "corpus/valid/one.noma"), DOC);
  const off = { NOMA_RECONCILE_COMPILE_CACHE: "0" };
  const op = JSON.stringify({ op: "update_attribute", id: "c1", key: "confidence", value: 0.9 });
  expect(runCli(["patch", "doc.noma", "--op", op, "--actor-name", "t"], { cwd: repo, env: off }).code).toBe(0);
  expect(runCli(["mark-reconciled", "--all"], { cwd: repo, env: off }).code).toBe(0);
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-qm", "initial"]);
  git(repo, ["checkout", "-qb", "topic"]);
  writeFileSync(join(repo, "src/a.ts"), "export const a = 2;\n");
  git(repo, ["commit", "-qam", "edit"]);
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the shared body of the less frequent commands", () => {
  it("runs every command it holds (the table below names each)", () => {
    expect(RUNS.map(([c]) => c).sort()).toEqual(Object.keys(commands).sort());
  });

  it.each(RUNS)("%s: the same output with the cache off, on the run that writes its cache file and on a run from it", (command, args) => {
    const dir = join(base, `cc-${command}`);
    const off = runCli(args, { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE: "0", NOMA_RECONCILE_COMPILE_CACHE_DIR: dir } });
    expect(off.stdout.length).toBeGreaterThan(0); // the output compared below is not an empty one
    expect(readdirSync(base)).not.toContain(`cc-${command}`);
    const first = runCli(args, { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir } });
    expect(first).toEqual(off);
    const names = readdirSync(dir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(new RegExp(`^commands-${command}-[0-9a-f]{16}-${process.version.replaceAll(".", "\\.")}-${process.arch}\\.bin$`));
    const file = join(dir, names[0]!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(cachePayload(readFileSync(file))?.length).toBeGreaterThan(0);
    const before = statSync(file);
    const second = runCli(args, { cwd: repo, env: { NOMA_RECONCILE_COMPILE_CACHE_DIR: dir } });
    expect(second).toEqual(off);
    // Accepted by V8: a refused cache would have been replaced (a new file renamed over it).
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readdirSync(dir)).toEqual(names);
  });
});
