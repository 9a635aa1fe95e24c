/**
 * Every path-taking tool — NOA's (read_file, list_files, edit_file, apply_patch), those
 * named after the MCP filesystem server's (read_text_file, read_media_file,
 * read_multiple_files, list_directory, list_directory_with_sizes, directory_tree,
 * search_files, get_file_info, write_file, create_directory, move_file — both its
 * source and its destination — and edit_file's edits) and ours (append_file,
 * search_text) — against an escape matrix, through both real bindings (the MCP server over stdio and
 * `serve --http`): `..`, absolute paths outside, symbolic links (to a directory and to a
 * file) leading out, dangling links to where a file or directory outside would be, NUL,
 * backslashes, drive letters, `.git` in several spellings and
 * through a link, and the files the tools never write. Each is refused with its code
 * (isError on MCP, the mapped HTTP status), nothing outside the repository is read or
 * changed, the refusals are in the ledger, and the ledger verifies. Clients sending the
 * wrong JSON types get a clean refusal too. The matrix runs again against read-only servers
 * (MCP and HTTP: every tool that writes is refused as read_only, every read escape as
 * before) and with an MCP client that gives roots (the repository and the directory
 * outside it: a root outside widens nothing).
 */
import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runWorkspaceTool } from "../../src/workspace/run-workspace-tool.js";
import { openWorkspace } from "../../src/workspace/workspace.js";
import { isWorkspaceWriteTool } from "../../src/workspace/workspace-tool-names.js";
import { CLI, runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { HttpServer } from "./helpers/http-server.js";

const SECRET = "TOP-SECRET-OUTSIDE";

function fixture() {
  const outside = tempDir("nr-outside-");
  writeFileSync(join(outside, "secret.txt"), `${SECRET}\n`);
  mkdirSync(join(outside, "sub"));
  writeFileSync(join(outside, "sub/a.txt"), `${SECRET} sub\n`);
  const root = tempRepo({ "inside.txt": "inside\n", "dir/a.txt": "a\n", "tools/allowed_commands.toml": "", "docs/evidence_ledger.tools.log": "" });
  symlinkSync(outside, join(root, "link-out-dir"));
  symlinkSync(join(outside, "secret.txt"), join(root, "link-out-file"));
  symlinkSync(join(root, ".git/config"), join(root, "link-git-config"));
  symlinkSync(join(outside, "created-through-link.txt"), join(root, "link-out-dangling"));
  symlinkSync(join(outside, "new-dir"), join(root, "link-out-dangling-dir"));
  symlinkSync("dir/a.txt", join(root, "link-in"));
  return { root, outside };
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, `${rel}${n}/`);
      else out[`${rel}${n}`] = `${st.mode}:${readFileSync(p, "utf8")}`;
    }
  };
  walk(dir, "");
  return out;
}

/** [path, expected code for reading, expected code for writing] */
function matrix(outside: string): Array<[string, string, string]> {
  return [
    ["../outside/secret.txt", "invalid_path", "invalid_path"],
    ["dir/../../x", "invalid_path", "invalid_path"],
    [`${outside}/secret.txt`, "outside_workspace", "outside_workspace"],
    ["/etc/passwd", "outside_workspace", "outside_workspace"],
    ["link-out-dir/secret.txt", "outside_workspace", "outside_workspace"],
    ["link-out-dir/sub/a.txt", "outside_workspace", "outside_workspace"],
    ["link-out-dir/new.txt", "outside_workspace", "outside_workspace"],
    ["link-out-file", "outside_workspace", "outside_workspace"],
    ["link-out-dangling", "outside_workspace", "outside_workspace"],
    ["link-out-dangling-dir/x.txt", "outside_workspace", "outside_workspace"],
    ["inside.txt\0../../etc/passwd", "invalid_path", "invalid_path"],
    ["..\\outside\\secret.txt", "invalid_path", "invalid_path"],
    ["dir\\a.txt", "invalid_path", "invalid_path"],
    ["C:/Windows/win.ini", "invalid_path", "invalid_path"],
    ["//server/share/x", "invalid_path", "invalid_path"],
    [".git/config", "protected_path", "protected_path"],
    [".GIT/config", "protected_path", "protected_path"],
    [".git./config", "protected_path", "protected_path"],
    ["link-git-config", "protected_path", "protected_path"],
    ["", "invalid_path", "invalid_path"],
  ];
}

const WRITE_ONLY: Array<[string, string]> = [
  ["docs/evidence_ledger.tools.log", "protected_path"],
  ["DOCS/Evidence_Ledger.Tools.Log", "protected_path"],
  ["archive/2026/01/x.tar.zst", "protected_path"],
  ["tools/allowed_commands.toml", "protected_path"],
  [".notarai/config.yaml", "protected_path"],
  [".notarai/.cache/workspace/x.lock", "protected_path"],
  ["docs/plan.noma.patches", "protected_path"],
];

type Call = (tool: string, args: unknown) => Promise<{ code: string | null; text: string; status?: number; body?: Record<string, unknown> }>;

/** Tools that take a directory: "" (the root) is allowed. */
const DIRECTORY_TOOLS = ["list_files", "list_directory", "list_directory_with_sizes", "directory_tree", "search_files", "search_text", "get_file_info"];

function requests(path: string, write: boolean): Array<[string, unknown]> {
  if (!write)
    return [
      ["read_file", { path }],
      ["list_files", { path }],
      ["read_text_file", { path }],
      ["read_text_file", { path, tail: 1 }],
      ["read_media_file", { path }],
      ["read_multiple_files", { paths: [path] }],
      ["list_directory", { path }],
      ["list_directory_with_sizes", { path }],
      ["directory_tree", { path }],
      ["search_files", { path, pattern: "**" }],
      ["search_text", { path, pattern: "SECRET" }],
      ["get_file_info", { path }],
      ["edit_file", { path, edits: [{ oldText: "a", newText: "b" }], dryRun: true }],
    ];
  return [
    ["edit_file", { path, contents: "pwned\n", create_if_missing: true }],
    ["apply_patch", { path, hunks: [{ start_line: 1, end_line: 1, replacement: "pwned" }] }],
    ["edit_file", { path, edits: [{ oldText: "a", newText: "pwned" }] }],
    ["write_file", { path, content: "pwned\n" }],
    ["append_file", { path, content: "pwned\n" }],
    ["create_directory", { path }],
    ["move_file", { source: path, destination: "moved-here" }],
    ["move_file", { source: "inside.txt", destination: path }],
  ];
}

/** How the server runs: `readOnly` refuses every tool that writes (read_only) before any path is looked at. */
interface Mode {
  readOnly?: boolean;
}

async function runMatrix(call: Call, root: string, outside: string, mode: Mode = {}): Promise<number> {
  const before = snapshot(outside);
  const writing = (code: string): string => (mode.readOnly === true ? "read_only" : code);
  let n = 0;
  for (const [path, readCode, writeCode] of matrix(outside)) {
    for (const write of [false, true]) {
      for (const [tool, args] of requests(path, write)) {
        const r = await call(tool, args);
        n++;
        expect(r.text).not.toContain(SECRET);
        // edit_file's dryRun reads only, but a read-only server serves no edit_file at all.
        const want = write
          ? writing(writeCode)
          : isWorkspaceWriteTool(tool)
            ? writing(readCode)
            : DIRECTORY_TOOLS.includes(tool) && path === ""
              ? null
              : readCode;
        if (want === null) continue; // "" is the root: a directory tool may list it
        // read_multiple_files answers for each file: one refused is reported in its place.
        const code = tool === "read_multiple_files" && r.code === null ? ((r.body!["files"] as Array<{ code?: string }>)[0]?.code ?? null) : r.code;
        expect(code, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(want);
      }
    }
  }
  for (const [path, code] of WRITE_ONLY) {
    for (const [tool, args] of requests(path, true)) {
      const r = await call(tool, args);
      n++;
      expect(r.code, `${tool} ${path}: ${r.text}`).toBe(writing(code));
    }
  }
  // Inside the repository, through an inside link: allowed.
  const inLink = await call("read_file", { path: "link-in" });
  n++;
  expect(inLink.code).toBeNull();
  expect(inLink.text).toContain('"path":"dir/a.txt"');
  // Nothing outside is found by walking: links are listed, never followed.
  for (const [tool, args] of [
    ["search_text", { pattern: SECRET }],
    ["search_files", { path: ".", pattern: "**/secret.txt" }],
    ["directory_tree", { path: "." }],
    ["list_directory_with_sizes", { path: "." }],
  ] as Array<[string, unknown]>) {
    const r = await call(tool, args);
    n++;
    expect(r.code, `${tool}: ${r.text}`).toBeNull();
    expect(r.text).not.toContain(SECRET);
    expect(r.text).not.toContain("secret.txt");
    expect(r.text).not.toContain("sub/a.txt");
  }
  // Wrong JSON types.
  for (const [tool, args] of [
    ["read_file", { path: 5 }],
    ["read_file", { path: null }],
    ["read_file", { path: ["inside.txt"] }],
    ["read_file", {}],
    ["edit_file", { path: "inside.txt", contents: 7 }],
    ["edit_file", { path: { $ne: 1 }, contents: "x" }],
    ["apply_patch", { path: "inside.txt", hunks: "1-2" }],
    ["apply_patch", { path: "inside.txt", hunks: [{ start_line: "1", end_line: 1, replacement: "x" }] }],
    ["apply_patch", { path: "inside.txt", hunks: [{ start_line: 1.5, end_line: 1, replacement: "x" }] }],
    ["list_files", { path: "dir", recursive: "yes" }],
    ["list_files", { max_entries: -1 }],
    ["read_file", { path: "inside.txt", extra: true }],
  ] as Array<[string, unknown]>) {
    const r = await call(tool, args);
    n++;
    expect(r.code, `${tool} ${JSON.stringify(args)}`).toBe(isWorkspaceWriteTool(tool) ? writing("invalid_arguments") : "invalid_arguments");
  }
  expect(snapshot(outside)).toEqual(before);
  expect(readFileSync(join(root, "inside.txt"), "utf8")).toBe("inside\n");
  expect(readFileSync(join(root, "docs/evidence_ledger.tools.log"), "utf8")).not.toContain("pwned");
  return n;
}

describe("escape matrix", () => {
  // The same matrix with the server read-only, and with a client that gives roots: the repository
  // itself and the directory outside (a root outside the repository widens nothing).
  for (const [how, args, roots] of [
    ["", [], false],
    [" --read-only", ["--read-only"], false],
    [" with the client's roots (the repository and the directory outside)", [], true],
  ] as const) {
    it(`through the MCP server${how}: every escape is an isError refusal, nothing outside is touched, every request is in the ledger`, async () => {
      const { root, outside } = fixture();
      const c = new McpClient(root, [process.execPath, CLI, "mcp", ...args]);
      if (roots) {
        c.onRequest = (method) => (method === "roots/list" ? { roots: [root, outside].map((p) => ({ uri: pathToFileURL(p).href, name: p })) } : {});
        await c.initialize("2025-06-18", { roots: { listChanged: true } });
        expect(await c.ok("list_allowed_directories")).toMatchObject({ directories: [root] });
        expect(c.serverRequests.map((r) => r.method)).toEqual(["roots/list"]);
      } else await c.initialize();
      const call: Call = async (tool, a) => {
        const r = await c.call(tool, a as Record<string, unknown>);
        const text = JSON.stringify(r.content);
        if (r.isError === true) return { code: (JSON.parse(r.content[0]!.text) as { code: string }).code, text };
        return { code: null, text: JSON.stringify(r.structuredContent), body: r.structuredContent! };
      };
      const n = await runMatrix(call, root, outside, { readOnly: args.length > 0 });
      // arguments that are not an object at all
      const raw = await c.request("tools/call", { name: "read_file", arguments: "inside.txt" });
      expect((raw.result as { isError: boolean }).isError).toBe(true);
      expect(JSON.parse((raw.result as { content: Array<{ text: string }> }).content[0]!.text)).toMatchObject({ success: false, code: "invalid_arguments" });
      await c.close();
      const v = runCli(["ledger", "verify", "--format", "json"], { cwd: root });
      expect(v.code, v.stdout).toBe(0);
      expect((JSON.parse(v.stdout).result as { lines: number }).lines).toBe(n + 1 + (roots ? 1 : 0));
    });
  }

  for (const args of [[], ["--read-only"]]) {
    it(`through the HTTP server${args.length > 0 ? " --read-only" : ""}: every escape is refused with its status code, nothing outside is touched, every request is in the ledger`, async () => {
      const { root, outside } = fixture();
      const s = await new HttpServer(root, args).ready();
      const STATUS: Record<string, number> = { invalid_path: 400, outside_workspace: 403, protected_path: 403, invalid_arguments: 400, read_only: 403 };
      const call: Call = async (tool, a) => {
        const r = await s.send(tool, a);
        const text = JSON.stringify(r.body);
        if (r.body["success"] === false) {
          expect(r.status, text).toBe(STATUS[r.body["code"] as string] ?? r.status);
          return { code: r.body["code"] as string, text, status: r.status };
        }
        expect(r.status).toBe(200);
        return { code: null, text, status: r.status, body: r.body };
      };
      const n = await runMatrix(call, root, outside, { readOnly: args.length > 0 });
      for (const raw of ["[]", '"inside.txt"', "42", "null", '{"path":'] as const) {
        const r = await s.send("read_file", null, { raw });
        expect(r.status, raw).toBe(400);
        expect(r.body).toMatchObject({ success: false, code: "invalid_arguments" });
      }
      expect((await s.stop()).code).toBe(0);
      const v = runCli(["ledger", "verify", "--format", "json"], { cwd: root });
      expect(v.code, v.stdout).toBe(0);
      expect((JSON.parse(v.stdout).result as { lines: number }).lines).toBe(n + 5);
    });
  }

  it("never puts its lock files outside: a .notarai/.cache linked out of the repository refuses every write", async () => {
    const outside = tempDir("nr-cache-out-");
    const root = tempRepo({ "a.txt": "a\n" });
    mkdirSync(join(root, ".notarai"), { recursive: true });
    symlinkSync(outside, join(root, ".notarai/.cache"));
    const r = await runWorkspaceTool(openWorkspace(root), "edit_file", { path: "a.txt", contents: "b\n" });
    // refused, and not recordable either (the ledger's lock lives there too): both are said
    expect(r.body).toMatchObject({ success: false, code: "ledger_error" });
    expect(String(r.body["message"])).toMatch(
      /^\.notarai\/\.cache is a symbolic link to .*could not be recorded in the evidence ledger: \.notarai\/\.cache is a symbolic link/s,
    );
    expect(readdirSync(outside)).toEqual([]);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("a\n");
  });
});
