/**
 * Path containment for every path-taking tool: a `file`, `spec_path` or
 * `files` argument that leaves the repository — through `..`, as an absolute
 * path elsewhere, or through a symlink (file or directory) pointing out — is
 * an `isError` result naming the path, and nothing is read or written.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";
import { McpClient, expectProtocolOnly } from "./helpers/mcp-client.js";

const DOC = '::claim{id="c1" confidence=0.5}\nA claim.\n::\n';
const SPEC = 'schema_version: "0.7"\nintent: x\nbehaviors:\n  - name: b\n    given: g\n    then: t\nartifacts:\n  code:\n    - path: "**"\n';

interface Setup {
  root: string;
  outside: string;
  /** Escaping spellings of the outside document / spec. */
  docPaths: string[];
  specPaths: string[];
}

function setup(): Setup {
  const outside = tempDir("nr-outside-");
  writeFileSync(join(outside, "secret.noma"), DOC);
  mkdirSync(join(outside, ".notarai"), { recursive: true });
  writeFileSync(join(outside, ".notarai/x.spec.yaml"), SPEC);
  writeFileSync(join(outside, "data.txt"), "outside\n");
  const root = tempRepo({ ".notarai/in.spec.yaml": SPEC, "in.noma": DOC, "src/a.ts": "a\n" });
  symlinkSync(join(outside, "secret.noma"), join(root, "link.noma")); // a file symlink pointing out
  symlinkSync(outside, join(root, "outdir")); // a directory symlink pointing out
  symlinkSync(join(outside, ".notarai/x.spec.yaml"), join(root, ".notarai/link.spec.yaml"));
  const rel = relative(root, outside);
  return {
    root,
    outside,
    docPaths: [`${rel}/secret.noma`, "../../../../../../../../etc/passwd", join(outside, "secret.noma"), "link.noma", "outdir/secret.noma", "src/../../x.noma"],
    specPaths: [
      `${rel}/.notarai/x.spec.yaml`,
      join(outside, ".notarai/x.spec.yaml"),
      ".notarai/link.spec.yaml",
      "outdir/.notarai/x.spec.yaml",
      "../.notarai/x.spec.yaml",
    ],
  };
}

/** Every file under `dir` with its size and mtime, to prove nothing was written. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(p, `${statSync(p).size}:${statSync(p).mtimeMs}:${readFileSync(p, "utf8")}`);
    }
  };
  walk(dir);
  return out;
}

describe("mcp: path containment", () => {
  it("rejects escaping `file` arguments for read_doc, list_ids, validate_doc and patch_block; nothing read or written", async () => {
    const s = setup();
    const beforeOutside = snapshot(s.outside);
    const c = new McpClient(s.root);
    for (const file of s.docPaths) {
      for (const [tool, extra] of [
        ["read_doc", {}],
        ["list_ids", {}],
        ["validate_doc", {}],
        ["patch_block", { op: { op: "update_attribute", id: "c1", key: "confidence", value: 0.9 } }],
        ["patch_block", { ops: [{ op: "delete_block", id: "c1" }] }],
      ] as const) {
        const msg = await c.fails(tool, { file, ...extra });
        expect(msg, `${tool} ${file}`).toContain(file);
        expect(msg, `${tool} ${file}`).toMatch(/outside the repository/);
      }
    }
    expect(snapshot(s.outside)).toEqual(beforeOutside);
    expect(existsSync(join(s.outside, "secret.noma.patches"))).toBe(false);
    expect(existsSync(join(s.root, "link.noma.patches"))).toBe(false);
    expectProtocolOnly((await c.close()).lines);
  });

  it("rejects escaping `spec_path` for get_spec_diff, get_changed_artifacts and mark_reconciled", async () => {
    const s = setup();
    const c = new McpClient(s.root);
    for (const spec of s.specPaths) {
      for (const [tool, args] of [
        ["get_spec_diff", { spec_path: spec, base_branch: "main" }],
        ["get_changed_artifacts", { spec_path: spec }],
        ["mark_reconciled", { files: ["src/a.ts"], spec_path: spec }],
      ] as const) {
        const msg = await c.fails(tool, args);
        expect(msg, `${tool} ${spec}`).toContain(spec);
        expect(msg, `${tool} ${spec}`).toMatch(/outside the repository/);
      }
    }
    // Nothing was written: no cache was created by the refused calls.
    expect(existsSync(join(s.root, ".notarai/.cache/notarai.db"))).toBe(false);
    await c.close();
  });

  it("rejects mark_reconciled when any of `files` escapes, naming each, and marks nothing", async () => {
    const s = setup();
    const c = new McpClient(s.root);
    const msg = await c.fails("mark_reconciled", { files: ["src/a.ts", join(s.outside, "data.txt"), "outdir/data.txt", "../x"] });
    expect(msg).toContain(join(s.outside, "data.txt"));
    expect(msg).toContain("outdir/data.txt");
    expect(msg).toContain('"../x"');
    expect(msg).not.toContain('"src/a.ts"');
    expect(existsSync(join(s.root, ".notarai/.cache/notarai.db"))).toBe(false);
    // The same call without the escaping paths works.
    expect(await c.ok("mark_reconciled", { files: ["src/a.ts"] })).toEqual({ updated: 1 });
    await c.close();
  });

  it("allows a symlink that stays inside the repository", async () => {
    const root = tempRepo({ "docs/real.noma": DOC });
    symlinkSync(join(root, "docs/real.noma"), join(root, "alias.noma"));
    git(root, ["add", "-A"]);
    const c = new McpClient(root);
    expect(await c.ok("list_ids", { file: "alias.noma" })).toEqual({ ids: ["c1"], aliases: {} });
    await c.close();
  });
});
