/**
 * The differential test: an agent configured for the official MCP filesystem server
 * (`@modelcontextprotocol/server-filesystem`, the pinned devDependency, spawned over
 * stdio as a black box) works unchanged against ours. One scripted sequence of
 * requests — every tool the two share, reads, writes, edits, moves, errors and escapes —
 * goes to both servers, each on its own copy of one directory; after every step the
 * two trees must be equal (our ledger, archive and lock files aside), and each answer
 * must mean the same: the same text, lines, listing, diff lines, paths or refusal. Each
 * tool's annotations (readOnlyHint, destructiveHint, …) are the ones it gives.
 *
 * Where we answer differently on purpose the step says so and asserts both answers
 * (docs/workspace.md lists these): `tail` counts lines as lines (the filesystem server
 * counts the empty string after a final line break as one), a text file's MIME type is
 * named, a symbolic link's size is not that of what it leads to, directories sort last by
 * size, and absolute paths are the copy's own.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, lstatSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { CLI } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";

const require = createRequire(import.meta.url);
const FS_SERVER = join(require.resolve("@modelcontextprotocol/server-filesystem/package.json"), "../dist/index.js");

interface Answer {
  isError: boolean;
  /** The first content block's text (or the whole block, for media). */
  text: string;
  block: Record<string, unknown>;
  structured: Record<string, unknown> | undefined;
}

/** A bare MCP client over stdio (no schema checks: the filesystem server has its own output shapes). */
class Stdio {
  private buf = "";
  private next = 1;
  private readonly waiting = new Map<number, (m: Record<string, unknown>) => void>();
  readonly child;
  stderr = "";

  constructor(argv: string[], cwd: string) {
    this.child = spawn(argv[0]!, argv.slice(1), { cwd, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d: string) => (this.stderr += d));
    this.child.stdout.on("data", (d: string) => {
      this.buf += d;
      for (let nl = this.buf.indexOf("\n"); nl !== -1; nl = this.buf.indexOf("\n")) {
        const m = JSON.parse(this.buf.slice(0, nl)) as Record<string, unknown>;
        this.buf = this.buf.slice(nl + 1);
        const w = typeof m["id"] === "number" ? this.waiting.get(m["id"]) : undefined;
        if (w !== undefined) w(m);
      }
    });
    onTestFinished(() => {
      if (this.child.exitCode === null) this.child.kill("SIGKILL");
    });
  }

  request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  async init(): Promise<void> {
    await this.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "differential", version: "1" } });
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  }

  async call(name: string, args: Record<string, unknown>): Promise<Answer> {
    const r = await this.request("tools/call", { name, arguments: args });
    expect(r["error"], `${name}: ${JSON.stringify(r["error"])}`).toBeUndefined();
    const result = r["result"] as { content: Array<Record<string, unknown>>; isError?: boolean; structuredContent?: Record<string, unknown> };
    const block = result.content[0]!;
    return { isError: result.isError === true, text: typeof block["text"] === "string" ? block["text"] : "", block, structured: result.structuredContent };
  }

  close(): Promise<unknown> {
    this.child.stdin.end();
    return new Promise((r) => this.child.on("close", r));
  }
}

/** Everything in a tree but what only our server writes: its ledger and archive (.audit/), its locks (.notarai/.cache), and .git. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const r = rel === "" ? name : `${rel}/${name}`;
      if (r === ".git" || r === ".audit" || r === ".notarai/.cache") continue;
      const st = lstatSync(join(root, r));
      if (st.isSymbolicLink()) out[r] = `link ${readlinkSync(join(root, r))}`;
      else if (st.isDirectory()) {
        out[r] = "dir";
        walk(r);
      } else
        out[r] = createHash("sha256")
          .update(readFileSync(join(root, r)))
          .digest("hex");
    }
  };
  walk("");
  return out;
}

/** The +/- lines of a diff (its meaning: what was removed and added, in order). */
const changes = (diff: string): string[] => diff.split("\n").filter((l) => /^[-+](?!--|\+\+)/.test(l));
/** Lines of a text, a final line break not counting as an empty last line. */
const lines = (t: string): string[] => t.replace(/\n$/, "").split("\n");

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");

function fixture(): { ours: string; theirs: string; outside: string } {
  const outside = tempDir("nr-diff-outside-");
  writeFileSync(join(outside, "secret.txt"), "SECRET\n");
  const ours = tempRepo({
    ".notarai/config.yaml": "workspace:\n  ledger: .audit/ledger.log\n  archive: .audit/archive\n",
    "notes/a.txt": "alpha\nbeta\ngamma\ndelta\n",
    "notes/b.md": "# B\n\nbody\n",
    "notes/no-newline.txt": "one\ntwo\nthree",
    "notes/big.txt": `${"x".repeat(3000)}\n`,
    "src/code.js": "function f() {\n  return 1;\n}\n\nconst x = 1;\nconst y = 2;\n",
    "src/deep/z.md": "z\n",
    "src/sub/deep/y.md": "y\n",
    "media/pic.png": PNG,
    "media/sound.wav": Buffer.from("RIFF0000WAVEfmt "),
  });
  symlinkSync(join(outside, "secret.txt"), join(ours, "notes/link-out"));
  symlinkSync(outside, join(ours, "link-out-dir"));
  git(ours, ["add", "-A"]);
  git(ours, ["commit", "-qm", "fixture"]);
  const theirs = join(tempDir("nr-diff-theirs-"), "copy");
  cpSync(ours, theirs, { recursive: true, verbatimSymlinks: true });
  return { ours, theirs, outside };
}

describe("the MCP filesystem server's tools, ours and theirs", () => {
  it("one scripted sequence leaves equal trees and answers that mean the same, tool by tool", async () => {
    const { ours, theirs } = fixture();
    const us = new Stdio([process.execPath, CLI, "mcp"], ours);
    const them = new Stdio([process.execPath, FS_SERVER, theirs], theirs);
    await Promise.all([us.init(), them.init()]);
    const both = async (name: string, args: Record<string, unknown>): Promise<[Answer, Answer]> => {
      const [a, b] = await Promise.all([us.call(name, args), them.call(name, args)]);
      expect(tree(ours), `${name} ${JSON.stringify(args)}: the trees differ`).toEqual(tree(theirs));
      return [a, b];
    };
    const same = async (name: string, args: Record<string, unknown>, meaning: (a: Answer) => unknown = (a) => a.text): Promise<[Answer, Answer]> => {
      const [a, b] = await both(name, args);
      expect(a.isError, `${name} ${JSON.stringify(args)}: ours ${a.text}`).toBe(false);
      expect(b.isError, `${name} ${JSON.stringify(args)}: theirs ${b.text}`).toBe(false);
      expect(meaning(a), `${name} ${JSON.stringify(args)}`).toEqual(meaning(b));
      return [a, b];
    };
    const bothRefuse = async (name: string, args: Record<string, unknown>): Promise<void> => {
      const [a, b] = await both(name, args);
      expect([a.isError, b.isError], `${name} ${JSON.stringify(args)}: ours ${a.text} / theirs ${b.text}`).toEqual([true, true]);
      expect(a.text).not.toContain("SECRET");
    };
    const shared = new Set<string>();
    const track = (n: string): string => (shared.add(n), n);

    // Reading.
    await same(track("read_text_file"), { path: "notes/a.txt" });
    await same("read_text_file", { path: "notes/a.txt", head: 2 }, (a) => lines(a.text));
    await same("read_text_file", { path: "notes/no-newline.txt", tail: 2 });
    {
      // Deviation: tail counts lines; theirs counts the empty string after the final line break as a line.
      const [a, b] = await both("read_text_file", { path: "notes/a.txt", tail: 2 });
      expect(a.text).toBe("gamma\ndelta\n");
      expect(b.text).toBe("delta\n");
    }
    await bothRefuse("read_text_file", { path: "notes/a.txt", head: 1, tail: 1 });
    await bothRefuse("read_text_file", { path: "notes/missing.txt" });
    await bothRefuse("read_text_file", { path: "notes" });
    await same(track("read_file"), { path: "notes/a.txt", head: 1 }, (a) => lines((a.structured?.["contents"] as string | undefined) ?? a.text));
    await same(track("read_media_file"), { path: "media/pic.png" }, (a) => a.block);
    await same("read_media_file", { path: "media/sound.wav" }, (a) => a.block);
    {
      // Deviation: a text file's MIME type is named (theirs: application/octet-stream); the block is the same resource.
      const [a, b] = await same("read_media_file", { path: "notes/b.md" }, (x) => [x.block["type"], (x.block["resource"] as { blob: string }).blob]);
      expect((a.block["resource"] as { mimeType: string }).mimeType).toBe("text/markdown");
      expect((b.block["resource"] as { mimeType: string }).mimeType).toBe("application/octet-stream");
    }
    await same(track("read_multiple_files"), { paths: ["notes/a.txt", "notes/missing.txt", "notes/b.md"] }, (a) =>
      a.text.split("\n---\n").map((part) => (part.includes(": Error - ") ? `${part.slice(0, part.indexOf(": Error - "))}: error` : part)),
    );

    // Listing and finding.
    await same(track("list_directory"), { path: "notes" });
    await same("list_directory", { path: "src" });
    {
      // Deviation: a symbolic link is never followed — its size is not that of what it leads to (here a file outside).
      const noLink = (a: Answer) => a.text.split("\n").filter((l) => !l.startsWith("[FILE] link-out") && !/^(Combined size|Total):/.test(l));
      const [a, b] = await same(track("list_directory_with_sizes"), { path: "notes" }, noLink);
      expect(a.text).toMatch(/^\[FILE\] link-out +0 B$/m);
      expect(b.text).toMatch(/^\[FILE\] link-out +7 B$/m);
      await same("list_directory_with_sizes", { path: "media", sortBy: "size" });
      // Deviation: sorted by size, directories (whose own size says nothing of their contents) come last.
      const [c, d] = await both("list_directory_with_sizes", { path: "src", sortBy: "size" });
      expect(
        c.text
          .split("\n")
          .slice(0, 3)
          .map((l) => l.replace(/ +/g, " ").trim()),
      ).toEqual(["[FILE] code.js 56 B", "[DIR] deep", "[DIR] sub"]);
      expect(d.text.split("\n")[0]!.trim()).toBe("[DIR] deep");
      await same("list_directory_with_sizes", { path: "src/deep" });
    }
    await same(track("directory_tree"), { path: "src" }, (a) => JSON.parse(a.text));
    await same("directory_tree", { path: "src", excludePatterns: ["deep"] }, (a) => JSON.parse(a.text));
    await same("directory_tree", { path: "src", excludePatterns: ["sub/deep"] }, (a) => JSON.parse(a.text));
    const relative = (root: string) => (a: Answer) =>
      a.text === "No matches found" ? [] : a.text.split("\n").map((p) => (p.startsWith(`${root}/`) ? p.slice(root.length + 1) : `(outside) ${p}`));
    {
      const [a, b] = await both(track("search_files"), { path: ".", pattern: "**/*.md" });
      expect(relative(ours)(a).sort()).toEqual(relative(theirs)(b).sort());
      expect(relative(ours)(a).sort()).toEqual(["notes/b.md", "src/deep/z.md", "src/sub/deep/y.md"]);
      const [c, d] = await both("search_files", { path: "src", pattern: "**/*.md", excludePatterns: ["sub/**"] });
      expect(relative(ours)(c)).toEqual(relative(theirs)(d));
      expect(relative(ours)(c)).toEqual(["src/deep/z.md"]);
      const [e, f] = await both("search_files", { path: "notes", pattern: "*.txt" });
      expect(relative(ours)(e).sort()).toEqual(relative(theirs)(f).sort());
      const [g, h] = await both("search_files", { path: ".", pattern: "nothing-like-this" });
      expect([g.text, h.text]).toEqual(["No matches found", "No matches found"]);
    }
    const info = (a: Answer) => a.text.split("\n").filter((l) => /^(size|isDirectory|isFile|permissions):/.test(l));
    await same(track("get_file_info"), { path: "notes/a.txt" }, info);
    await same("get_file_info", { path: "src" }, (a) => info(a).filter((l) => !l.startsWith("size")));
    {
      const [a, b] = await both(track("list_allowed_directories"), {});
      expect(a.text.replace(ours, "<root>")).toBe(b.text.replace(theirs, "<root>"));
    }

    // Writing.
    await same(track("write_file"), { path: "notes/new.txt", content: "fresh\n" });
    await same("write_file", { path: "notes/a.txt", content: "alpha\nBETA\ngamma\ndelta\n" });
    await bothRefuse("write_file", { path: "nowhere/x.txt", content: "x" });
    await same(track("create_directory"), { path: "made/deeper/still" });
    await same("create_directory", { path: "made" });
    await bothRefuse("create_directory", { path: "notes/new.txt" });

    // Editing: the diff's changed lines are the same, and so is the file.
    const diff = (a: Answer) => changes(a.text);
    await same(track("edit_file"), { path: "src/code.js", edits: [{ oldText: "return 1;", newText: "return 2;" }] }, diff);
    await same("edit_file", { path: "src/code.js", edits: [{ oldText: "function f", newText: "function g" }], dryRun: true }, diff);
    await same(
      "edit_file",
      {
        path: "src/code.js",
        edits: [
          { oldText: "const x = 1;", newText: "const x = 10;" },
          { oldText: "const y = 2;\n", newText: "const y = 20;\nconst z = 30;\n" },
        ],
      },
      diff,
    );
    // Whitespace-tolerant: the agent's copy is indented differently; the file's indentation is kept.
    await same(
      "edit_file",
      { path: "src/code.js", edits: [{ oldText: "    const x = 10;\n    const y = 20;", newText: "    const x = 11;\n    const y = 21;" }] },
      diff,
    );
    await bothRefuse("edit_file", { path: "src/code.js", edits: [{ oldText: "not in the file", newText: "x" }] });
    await bothRefuse("edit_file", { path: "src/missing.js", edits: [{ oldText: "a", newText: "b" }] });

    // Moving.
    await same(track("move_file"), { source: "notes/new.txt", destination: "made/new.txt" });
    await same("move_file", { source: "made/deeper", destination: "made/renamed" });
    await bothRefuse("move_file", { source: "notes/b.md", destination: "notes/a.txt" });
    await bothRefuse("move_file", { source: "notes/missing.txt", destination: "notes/z.txt" });
    await bothRefuse("move_file", { source: "notes/b.md", destination: "nowhere/b.md" });

    // Escapes: refused by both, nothing read or written outside.
    for (const path of ["../outside.txt", "/etc/passwd", "notes/link-out", "link-out-dir/secret.txt"]) await bothRefuse("read_text_file", { path });
    for (const path of ["../x.txt", "/tmp/nr-escape.txt", "link-out-dir/new.txt"]) await bothRefuse("write_file", { path, content: "pwned" });
    await bothRefuse("move_file", { source: "notes/b.md", destination: "../b.md" });
    await bothRefuse("list_directory", { path: "link-out-dir" });

    // Every tool the filesystem server lists was compared.
    type Listed = { tools: Array<{ name: string; annotations?: Record<string, unknown>; outputSchema?: unknown }> };
    const theirTools = ((await them.request("tools/list", {}))["result"] as Listed).tools;
    const listed = theirTools.map((t) => t.name);
    expect([...shared].sort()).toEqual([...listed].sort());
    // Each hint the filesystem server gives a tool, ours gives it too; ours gives all four, and an outputSchema.
    const ourTools = new Map(((await us.request("tools/list", {}))["result"] as Listed).tools.map((t) => [t.name, t]));
    for (const t of theirTools) {
      const mine = ourTools.get(t.name)!;
      expect(Object.keys(t.annotations ?? {}).length, t.name).toBeGreaterThan(1);
      for (const [hint, value] of Object.entries(t.annotations ?? {}).filter(([k]) => k.endsWith("Hint")))
        expect(mine.annotations?.[hint], `${t.name}.${hint}`).toBe(value);
      expect(
        Object.keys(mine.annotations!)
          .filter((k) => k.endsWith("Hint"))
          .sort(),
        t.name,
      ).toEqual(["destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint"]);
      expect((mine.outputSchema as { type: string }).type, t.name).toBe("object");
    }
    await Promise.all([us.close(), them.close()]);
  }, 120_000);
});
