/**
 * A chapter of a book is patched in its book's context, as check, the hook and ci judge it:
 * its links into other chapters resolve in the pre- and post-validation the patch reports and
 * records in the transcript, so `--strict` does not refuse it — through the real CLI
 * (`patch`, `transcript accept`) and the real MCP server (`patch_block`). A document no
 * book lists keeps its broken links.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";

const MANIFEST = "title: Guide\nchapters:\n  - 01-intro.noma\n  - 02-risks.noma\n";
const INTRO = "# Intro\n\n## Scope {#scope}\n\nRead [[risks]], then [[mitigation]].\n";
const RISKS = "# Risks\n\n## Mitigation\n\nBack to [[intro]].\n";
const BOOK = { "book/book.noma.yml": MANIFEST, "book/01-intro.noma": INTRO, "book/02-risks.noma": RISKS };
const OP = JSON.stringify({ op: "update_heading", id: "scope", title: "Scope, revised" });

/** Each record's post_validation and how many error diagnostics it carries. */
function recorded(repo: string, doc: string): Array<{ status: string; errors: number }> {
  return readFileSync(join(repo, `${doc}.patches`), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { post_validation?: string; diagnostics?: Array<{ severity: string }> })
    .map((r) => ({ status: r.post_validation ?? "", errors: (r.diagnostics ?? []).filter((d) => d.severity === "error").length }));
}

describe("patching a chapter of a book", () => {
  it("patch --strict applies: pre and post validation resolve the links into other chapters, and the transcript records it clean", () => {
    const repo = tempRepo(BOOK);
    const r = runCli(["patch", "book/01-intro.noma", "--op", OP, "--strict", "--actor-name", "t"], { cwd: repo });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("validation: pre ok, post ok");
    expect(r.stdout).not.toContain("broken-reference");
    expect(readFileSync(join(repo, "book/01-intro.noma"), "utf8")).toContain("Scope, revised");
    expect(recorded(repo, "book/01-intro.noma")).toEqual([{ status: "ok", errors: 0 }]);
    expect(runCli(["check"], { cwd: repo }).code).toBe(0);
  });

  it("a link that resolves nowhere in the book is still broken, and a document no book lists keeps its broken links", () => {
    const repo = tempRepo({ ...BOOK, "book/01-intro.noma": INTRO.replace("[[mitigation]]", "[[nowhere]]"), "solo.noma": "# Solo\n\nSee [[risks]].\n" });
    const chapter = runCli(["patch", "book/01-intro.noma", "--op", OP, "--actor-name", "t", "--format", "json"], { cwd: repo });
    const broken = (JSON.parse(chapter.stdout).result.diagnostics as Array<{ code: string; message: string; pos: { line: number } }>).filter(
      (d) => d.code === "broken-reference",
    );
    expect(broken).toEqual([expect.objectContaining({ pos: expect.objectContaining({ line: 5 }), message: expect.stringContaining("[[nowhere]]") })]);
    const solo = runCli(["patch", "solo.noma", "--op", JSON.stringify({ op: "update_heading", id: "solo", title: "Solo" }), "--strict", "--actor-name", "t"], {
      cwd: repo,
    });
    expect(solo.code).toBe(1);
    expect(solo.stdout + solo.stderr).toContain("pre_validation_blocked");
  });

  it("transcript accept records the accepted bytes validated in the book", () => {
    const repo = tempRepo(BOOK);
    expect(runCli(["patch", "book/01-intro.noma", "--op", OP, "--actor-name", "t"], { cwd: repo }).code).toBe(0);
    writeFileSync(join(repo, "book/01-intro.noma"), `${readFileSync(join(repo, "book/01-intro.noma"), "utf8")}\nEdited by hand.\n`);
    const r = runCli(["transcript", "accept", "book/01-intro.noma", "--reason", "a hand edit"], { cwd: repo });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(recorded(repo, "book/01-intro.noma")).toEqual([
      { status: "ok", errors: 0 },
      { status: "ok", errors: 0 },
    ]);
  });

  it("MCP patch_block with strict applies to a chapter", async () => {
    const repo = tempRepo(BOOK);
    const c = new McpClient(repo);
    await c.initialize();
    const r = await c.ok<{ ok: boolean; validation: { pre: string; post: string } }>("patch_block", { file: "book/01-intro.noma", op: OP, strict: true });
    await c.close();
    expect(r).toMatchObject({ ok: true });
    expect(recorded(repo, "book/01-intro.noma")).toEqual([{ status: "ok", errors: 0 }]);
  });
});
