/**
 * The public library API is what the documentation documents, and nothing else: the names
 * src/index.ts exports and the built dist/index.js gives are exactly the pinned list below
 * (change it, and docs/library.md, on purpose); the package exports only that entry point
 * (src/internal.ts, every library function for benchmarks, is not reachable by importers).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as lib from "../src/index.js";

const PUBLIC = [
  "AcceptRefusedError",
  "CHECK_CODES",
  "CacheWriteError",
  "ConfigError",
  "DEFAULT_CONFIG",
  "DEFAULT_HTTP_PORT",
  "DocumentMissingError",
  "BookManifestInvalidError",
  "NotADocumentError",
  "GitError",
  "GitRefError",
  "KNOWN_PROFILES",
  "LockTimeoutError",
  "MalformedOpError",
  "McpServer",
  "NomaError",
  "PatchError",
  "PatchOpSchema",
  "PathOutsideRepoError",
  "RULES",
  "ReconcileError",
  "RunConfigError",
  "RunLockedError",
  "RuntimeError",
  "SymlinkEscapeError",
  "TOOL_CATALOG",
  "TOOL_NAME",
  "TOOL_VERSION",
  "UsageError",
  "WORKSPACE_SCHEMAS",
  "WORKSPACE_TOOL_NAMES",
  "Workspace",
  "WorkspaceError",
  "acceptOutsideEdits",
  "appendLedger",
  "applyHunks",
  "applyPatch",
  "astToJson",
  "baselineReconciliation",
  "buildGovernance",
  "checkFiles",
  "checkStaged",
  "checkWorktree",
  "clearCache",
  "coverageReport",
  "documentFixes",
  "documentStructure",
  "formatNoma",
  "getChangedArtifacts",
  "getSpecDiff",
  "governedFiles",
  "initProject",
  "installHooks",
  "listAffectedSpecs",
  "listArchived",
  "listRuns",
  "loadConfig",
  "loadSpecs",
  "markReconciled",
  "matchAllowlist",
  "openWorkspace",
  "parseAllowlist",
  "parseBookManifest",
  "parseConfig",
  "parseNoma",
  "patchBook",
  "patchDocument",
  "readArchived",
  "readSnapshot",
  "recoverBookTransaction",
  "reconciliationDrift",
  "recordRefusal",
  "renderCheckReport",
  "renderNoma",
  "resolveCiBase",
  "runCiCheck",
  "runLoop",
  "runMcpStdio",
  "runWorkspaceTool",
  "showRun",
  "slugify",
  "snapshotState",
  "specSchemaJson",
  "startWorkspaceHttp",
  "validateNoma",
  "validateSpecFile",
  "validateSpecText",
  "verifyCorpus",
  "verifyLedger",
  "verifyTranscript",
  "whichSpecsGovern",
  "withFileLock",
  "withFileLockSync",
];

describe("the public API", () => {
  it("src/index.ts exports exactly the documented names", () => {
    expect(Object.keys(lib).sort()).toEqual([...PUBLIC].sort());
  });

  it("the built dist/index.js gives the same names, and the package exports only it", () => {
    const url = new URL("../dist/index.js", import.meta.url).href;
    const built = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", `console.log(JSON.stringify(Object.keys(await import(${JSON.stringify(url)}))))`], {
        encoding: "utf8",
      }),
    ) as string[];
    expect(built.sort()).toEqual([...PUBLIC].sort());
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { exports: Record<string, unknown> };
    expect(Object.keys(pkg.exports).sort()).toEqual([".", "./package.json"]);
  });

  it("docs/library.md names every public name, types included; no documentation imports anything else from the package", () => {
    const library = readFileSync(new URL("../docs/library.md", import.meta.url), "utf8");
    const index = readFileSync(new URL("../src/index.ts", import.meta.url), "utf8");
    const types = [...index.matchAll(/\btype (\w+)/g), ...[...index.matchAll(/export type \{([^}]*)\}/g)].flatMap((m) => [...m[1]!.matchAll(/(\w+)/g)])].map(
      (m) => m[1]!,
    );
    // In a code example or in backticks.
    for (const name of [...PUBLIC, ...types]) expect(new RegExp(`\\b${name}\\b`).test(library), `docs/library.md names ${name}`).toBe(true);
    const docs = [
      "README.md",
      ...readdirSync(new URL("../docs", import.meta.url), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    const publicNames = new Set([...PUBLIC, ...types]);
    for (const doc of docs) {
      const text = readFileSync(new URL(`../${doc}`, import.meta.url), "utf8");
      for (const m of text.matchAll(/import \{([^}]*)\} from "noma-reconcile"/g)) {
        for (const name of m[1]!
          .split(",")
          .map((n) => n.trim().replace(/^type /, ""))
          .filter((n) => n.length > 0 && n !== "…"))
          expect(publicNames.has(name), `${doc} imports ${name}`).toBe(true);
      }
    }
  });
});
