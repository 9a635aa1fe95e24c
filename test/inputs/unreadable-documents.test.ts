/**
 * Issue 32.7: a document that cannot be read is an error in every command that reads
 * documents, naming the file and the operating system's reason — never "✓ No issues found".
 * The input is the issue's: a tracked `a.noma` with mode 000 holding a broken reference. File
 * permissions do not bind root, so when the tests run as root the CLI and the MCP server run
 * as `nobody` (setpriv); a tracked symbolic link to nothing needs no such thing.
 */
import { chmodSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI } from "../helpers/run-cli.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { boundedCli, openToAll, unprivileged } from "./helpers.js";

/** A broken reference: check reports it when it can read the file. */
const DOC = '::note{id="n1"}\nSee [there](#nowhere).\n::\n';
const DENIED = "a.noma: cannot be read: EACCES: permission denied";
const OP = JSON.stringify({ op: "update_attribute", id: "n1", key: "owner", value: "ana" });

const user = unprivileged();

/** A repository whose tracked a.noma has mode 000, readable and writable by the unprivileged user otherwise. */
function deniedRepo(options: { transcript?: boolean } = {}): string {
  const repo = tempRepo({ "a.noma": DOC, "b.noma": '::note{id="b1"}\nFine.\n::\n' });
  // A transcript, for the commands that read the document only once they found one.
  if (options.transcript === true) expect(boundedCli(["patch", "a.noma", "--op", OP], { cwd: repo }).code).toBe(0);
  openToAll(repo);
  chmodSync(join(repo, "a.noma"), 0o000);
  return repo;
}

describe.skipIf(user === null)("a document that cannot be read (32.7)", () => {
  const run = (args: string[], cwd: string) => boundedCli(args, { cwd, prefix: user!.prefix, env: user!.env });

  it("the test itself: the user it runs as cannot read a mode-000 file", () => {
    const repo = deniedRepo();
    const r = run(["render", "b.noma"], repo);
    expect(r.code).toBe(0); // the rest of the repository is readable
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(DOC); // root reads it: the test's own view
  });

  it("check (text and JSON): an error naming the file and EACCES, exit 1", () => {
    const repo = deniedRepo();
    const text = run(["check"], repo);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe(`ERROR [file-unreadable] ${DENIED}\n`);
    expect(text.stderr).toBe("2 files checked: 1 error, 0 warnings.\n");
    const json = run(["check", "a.noma", "--format", "json"], repo);
    expect(json.code).toBe(1);
    const env = JSON.parse(json.stdout) as {
      ok: boolean;
      result: { files: Array<{ file: string; diagnostics: Array<{ severity: string; code: string; message: string }> }> };
    };
    expect(env.ok).toBe(false);
    expect(env.result.files).toEqual([
      { file: "a.noma", diagnostics: [{ severity: "error", code: "file-unreadable", message: "cannot be read: EACCES: permission denied" }] },
    ]);
  });

  it("fmt and fmt --check: the same error, exit 1; nothing written", () => {
    const repo = deniedRepo();
    for (const args of [["fmt"], ["fmt", "--check"]]) {
      const r = run(args, repo);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stdout, args.join(" ")).toBe(`ERROR [file-unreadable] ${DENIED}\n`);
    }
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(DOC);
  });

  it("ids, parse, render, patch, transcript verify and accept: exit 2 naming the file and EACCES", () => {
    const repo = deniedRepo({ transcript: true });
    const before = readFileSync(join(repo, "a.noma"), "utf8");
    const transcript = readFileSync(join(repo, "a.noma.patches"), "utf8");
    for (const args of [
      ["ids", "a.noma"],
      ["parse", "a.noma"],
      ["render", "a.noma"],
      ["patch", "a.noma", "--op", OP],
      ["transcript", "verify", "a.noma"],
      ["transcript", "accept", "a.noma", "--reason", "edited by hand"],
    ]) {
      const r = run(args, repo);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(`noma-reconcile: ${DENIED}`);
    }
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(before);
    expect(readFileSync(join(repo, "a.noma.patches"), "utf8")).toBe(transcript);
  });

  it("MCP read_doc, list_ids, validate_doc and patch_block: refused naming EACCES; the server keeps serving", async () => {
    const repo = deniedRepo();
    const c = new McpClient(repo, [...user!.prefix, process.execPath, CLI, "mcp"], user!.env);
    await c.initialize();
    for (const tool of ["read_doc", "list_ids"]) expect(await c.fails(tool, { file: "a.noma" }), tool).toBe(DENIED);
    const v = await c.ok<{ ok: boolean; diagnostics: Array<{ code: string; message: string }> }>("validate_doc", { file: "a.noma" });
    expect(v.ok).toBe(false);
    expect(v.diagnostics).toEqual([{ severity: "error", code: "file-unreadable", message: "cannot be read: EACCES: permission denied" }]);
    expect(await c.fails("patch_block", { file: "a.noma", op: { op: "delete_block", id: "n1" } })).toContain(DENIED);
    expect(await c.ok("validate_doc", { file: "b.noma" })).toEqual({ ok: true, diagnostics: [] });
    await c.close();
  });
});

describe("a tracked symbolic link to nothing (32.7)", () => {
  it("check: an error naming the link and its missing target", () => {
    const repo = tempRepo({ "b.noma": '::note{id="b1"}\nFine.\n::\n' });
    symlinkSync("gone.noma", join(repo, "l.noma"));
    git(repo, ["add", "l.noma"]);
    git(repo, ["commit", "-qm", "link"]);
    const r = boundedCli(["check"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("ERROR [file-unreadable] l.noma: cannot be read: it is a symbolic link to gone.noma, which does not exist\n");
    expect(r.stderr).toBe("2 files checked: 1 error, 0 warnings.\n");
  });
});
