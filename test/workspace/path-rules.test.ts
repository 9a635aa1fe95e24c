/**
 * Path text rules and protected paths (pure): what is refused as written (NUL,
 * backslash, drive letters, `//`, `..`, too long), `.git` in every spelling a
 * case-insensitive file system accepts, and the files the tools never write.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPathText, isGitComponent, protectedReason } from "../../src/workspace/path-rules.js";
import { WorkspaceError } from "../../src/workspace/workspace-error.js";

const P = { ledger: "docs/evidence_ledger.tools.log", archive: "archive", allowlist: "tools/allowed_commands.toml" };

function code(f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (e) {
    return e instanceof WorkspaceError ? e.code : `threw ${(e as Error).name}`;
  }
}

describe("checkPathText", () => {
  it("refuses NUL, backslashes, drive letters, //, .., empty and overlong paths with invalid_path", () => {
    for (const bad of ["a\0b", "a\\b", "..\\x", "C:/x", "c:x", "//server/share", "..", "../x", "a/../../x", "a/..", "", "x".repeat(4097)]) {
      expect(
        code(() => checkPathText(bad)),
        JSON.stringify(bad),
      ).toBe("invalid_path");
    }
    for (const ok of ["a", "a/b.md", "./a", "/abs/inside", ".hidden", "a..b", "...", "é/ü.txt", "a b/c"]) expect(checkPathText(ok)).toBe(ok);
    expect(checkPathText("", true)).toBe(".");
  });

  it("never throws anything but invalid_path, and accepts a path exactly when no rule refuses it (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "/", ".", "\\", "\0", ":", "C", " ", "é"), maxLength: 12 }), (s) => {
        const c = code(() => checkPathText(s));
        const refused = s.length === 0 || s.includes("\0") || s.includes("\\") || /^[A-Za-z]:/.test(s) || s.startsWith("//") || s.split("/").includes("..");
        expect(c).toBe(refused ? "invalid_path" : null);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("isGitComponent / protectedReason", () => {
  it(".git in every case-insensitive spelling, trailing dots and spaces, and the 8.3 alias", () => {
    for (const g of [".git", ".GIT", ".Git", ".git.", ".git ", ".git. .", "GIT~1", "git~2"]) expect(isGitComponent(g), g).toBe(true);
    for (const n of [".gitignore", ".github", "git", ".git2", "x.git", ".gitattributes"]) expect(isGitComponent(n), n).toBe(false);
  });

  it(".git is neither readable nor writable; the ledger, archive, allowlist, config, cache and transcripts are not writable", () => {
    for (const p of [".git", ".git/config", "sub/.git/HEAD", ".GIT/hooks/pre-commit"]) {
      expect(protectedReason(p, P, false), p).toBe(`${p}: .git/ is never read or written by the workspace tools`);
      expect(protectedReason(p, P, true), p).toBe(`${p}: .git/ is never read or written by the workspace tools`);
    }
    // Each refused for what it is, named in the reason.
    const ledger = ": the evidence ledger is written only by the tools themselves (one line per request)";
    const archive = ": the archive (archive/) keeps overwritten versions and is never written by the tools' callers";
    for (const [p, reason] of [
      ["docs/evidence_ledger.tools.log", `docs/evidence_ledger.tools.log${ledger}`],
      ["DOCS/Evidence_Ledger.Tools.Log", `DOCS/Evidence_Ledger.Tools.Log${ledger}`],
      ["archive", `archive${archive}`],
      ["archive/2026/05/a.md.tar.zst", `archive/2026/05/a.md.tar.zst${archive}`],
      ["Archive/x", `Archive/x${archive}`],
      ["tools/allowed_commands.toml", "tools/allowed_commands.toml: the command allowlist is edited by people, not through the workspace tools"],
      [
        ".notarai/config.yaml",
        ".notarai/config.yaml: the configuration (which names the allowlist and the test and build commands) is edited by people, not through the workspace tools",
      ],
      [".notarai/.cache/x.lock", ".notarai/.cache/x.lock: .notarai/.cache/ holds the reconciliation cache and the tools' locks"],
      [
        "docs/plan.noma.patches",
        "docs/plan.noma.patches: a transcript is appended only by the patch engine, one record per op (the MCP tool patch_block, or `noma-reconcile patch` on the command line)",
      ],
      ["", "the repository root is not a file"],
    ] as const) {
      expect(protectedReason(p, P, true), p).toBe(reason);
      if (p !== "") expect(protectedReason(p, P, false), p).toBeNull();
    }
    for (const p of ["docs/evidence_ledger.tools.log.bak", "archived/x", "tools/other.toml", ".notarai/cli.spec.yaml", "docs/plan.noma", "src/a.ts"])
      expect(protectedReason(p, P, true), p).toBeNull();
  });
});
