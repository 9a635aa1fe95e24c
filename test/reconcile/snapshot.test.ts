/**
 * The committed snapshot .notarai/reconciliation_state.json: NotarAI's shape
 * (2-space JSON, sorted keys, one trailing newline), governed existing files
 * only and never itself; read back to seed a cold cache where hashes match;
 * a git_hash that is not an ancestor of HEAD is reported; NotarAI-written
 * snapshots (unix-seconds timestamps) load unchanged; clear_cache declines the seed.
 */
import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  blake3Hex,
  clearCache,
  formatSnapshot,
  getChangedArtifacts,
  getSpecDiff,
  markReconciled,
  parseSnapshot,
  resetState,
  showState,
  snapshotState,
  snapshotTimestampToIso,
} from "../../src/internal.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "./helpers/specs.js";
import { branch, checkout, commitAll, read, remove, warnings, write } from "./helpers/repo-ops.js";
import { rmSync } from "node:fs";

const A = ".notarai/a.spec.yaml";
const B = ".notarai/b.spec.yaml";
const STATE = ".notarai/reconciliation_state.json";

function project(): string {
  return tempRepo({
    [A]: specYaml({ artifacts: { code: ["src/**"], any: [".notarai/**"] } }),
    [B]: specYaml({ artifacts: { docs: ["docs/**", "src/shared.ts"] } }),
    "src/a.ts": "a\n",
    "src/shared.ts": "shared\n",
    "docs/d.md": "d\n",
    "other.txt": "ungoverned\n",
  });
}

describe("snapshot_state", () => {
  it("writes NotarAI's shape: sorted keys, 2-space JSON, one trailing newline; files vs specs; HEAD", async () => {
    const root = project();
    await markReconciled(root, { files: ["src/a.ts", "docs/d.md", A, "other.txt"] });
    const r = await snapshotState(root);
    const head = git(root, ["rev-parse", "HEAD"]).trim();
    expect(r).toEqual({ state_path: join(root, STATE), files: 2, specs: 1, git_hash: head });
    const text = read(root, STATE);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.endsWith("\n\n")).toBe(false);
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(["cli_version", "file_fingerprints", "last_reconciliation", "schema_version", "spec_fingerprints"]);
    expect(json["schema_version"]).toBe("1");
    expect(json["file_fingerprints"]).toEqual({
      "docs/d.md": { blake3: await blake3Hex(Buffer.from("d\n")) },
      "src/a.ts": { blake3: await blake3Hex(Buffer.from("a\n")) },
    });
    expect(Object.keys(json["spec_fingerprints"] as object)).toEqual([A]);
    expect(json["last_reconciliation"]).toMatchObject({ git_hash: head, branch: "main" });
    expect(text).toBe(formatSnapshot(parseSnapshot(text).snapshot!));
    expect(text.split("\n")[1]).toMatch(/^ {2}"cli_version"/);
  });

  it("holds only governed existing files reconciled for every governing spec, never itself", async () => {
    const root = project();
    await markReconciled(root, { files: ["src/shared.ts"], specPath: A });
    await markReconciled(root, { files: ["src/a.ts"] });
    let snap = parseSnapshot((await snapshotState(root), read(root, STATE))).snapshot!;
    expect(Object.keys(snap.file_fingerprints)).toEqual(["src/a.ts"]); // shared.ts: B has not reconciled it
    await markReconciled(root, { files: ["src/shared.ts"], specPath: B });
    await markReconciled(root, { files: [STATE] }); // the snapshot is never governed
    remove(root, "src/a.ts");
    await snapshotState(root);
    snap = parseSnapshot(read(root, STATE)).snapshot!;
    expect(Object.keys(snap.file_fingerprints)).toEqual(["src/shared.ts"]);
    expect(snap.file_fingerprints[STATE]).toBeUndefined();
  });
});

describe("reading snapshots back", () => {
  it("seeds a cold cache for files whose current hash matches, and persists the seed on the next write", async () => {
    const root = project();
    branch(root, "feature");
    write(root, "src/a.ts", "a2\n");
    write(root, "docs/d.md", "d2\n");
    commitAll(root, "work");
    await markReconciled(root, { files: ["src/a.ts", "docs/d.md"] });
    await snapshotState(root);
    commitAll(root, "snapshot");
    rmSync(join(root, ".notarai/.cache"), { recursive: true }); // a fresh clone: no cache
    write(root, "docs/d.md", "d3\n"); // changed since the snapshot
    let d = await getSpecDiff(root, { specPath: A, baseBranch: "main" });
    expect(d.skipped).toEqual(["src/a.ts"]);
    d = await getSpecDiff(root, { specPath: B, baseBranch: "main" });
    expect(d.files).toEqual(["docs/d.md"]);
    await markReconciled(root, { files: ["docs/d.md"] });
    remove(root, STATE); // the seed now lives in the cache
    expect((await getSpecDiff(root, { specPath: A, baseBranch: "main" })).skipped).toEqual(["src/a.ts"]);
  });

  it("a cleared cache is not re-seeded from the snapshot", async () => {
    const root = project();
    await markReconciled(root, { files: ["src/a.ts"] });
    await snapshotState(root);
    expect((await getChangedArtifacts(root, { specPath: A, artifactType: "code" })).changed_artifacts).toEqual(["src/shared.ts"]);
    await clearCache(root);
    expect((await getChangedArtifacts(root, { specPath: A, artifactType: "code" })).changed_artifacts).toEqual(["src/a.ts", "src/shared.ts"]);
  });

  it("loads a NotarAI-written snapshot (unix-seconds timestamp) unchanged and uses it", async () => {
    const root = project();
    const notarai = {
      schema_version: "1",
      cli_version: "0.5.0",
      last_reconciliation: { timestamp: "1767225600Z", git_hash: git(root, ["rev-parse", "HEAD"]).trim(), branch: "main" },
      file_fingerprints: { "src/a.ts": { blake3: (await blake3Hex(Buffer.from("a\n"))).toUpperCase() } },
      spec_fingerprints: {},
    };
    write(root, STATE, `${JSON.stringify(notarai, null, 2)}\n`);
    const s = showState(root);
    expect(s.problem).toBeNull();
    expect(s.timestamp).toBe("2026-01-01T00:00:00Z");
    expect(s.snapshot?.last_reconciliation.timestamp).toBe("1767225600Z");
    expect(s.snapshot?.cli_version).toBe("0.5.0");
    expect(s.ancestry).toBe("ancestor");
    expect((await getChangedArtifacts(root, { specPath: A, artifactType: "code" })).changed_artifacts).toEqual(["src/shared.ts"]);
    expect(snapshotTimestampToIso("1767225600")).toBe("2026-01-01T00:00:00Z");
    expect(snapshotTimestampToIso("2026-01-01T00:00:00.000Z")).toBe("2026-01-01T00:00:00Z");
    expect(snapshotTimestampToIso("garbage")).toBeNull();
  });

  it("reports a git_hash that is not an ancestor of HEAD (squash merge), yet still matches content", async () => {
    const root = project();
    branch(root, "feature");
    write(root, "src/a.ts", "feature\n");
    commitAll(root, "feature");
    await markReconciled(root, { files: ["src/a.ts"] });
    await snapshotState(root);
    const snap = read(root, STATE);
    checkout(root, "main");
    git(root, ["merge", "--squash", "-q", "feature"]);
    git(root, ["commit", "-qm", "squashed"]);
    write(root, STATE, snap);
    rmSync(join(root, ".notarai/.cache"), { recursive: true });
    expect(showState(root).ancestry).toBe("not-ancestor");
    const w = warnings();
    const r = await getChangedArtifacts(root, { specPath: A, artifactType: "code" }, { onWarning: w.onWarning });
    expect(w.list.some((m) => m.includes("not an ancestor of HEAD"))).toBe(true);
    expect(r.changed_artifacts).toEqual(["src/shared.ts"]);
  });

  it("an unparseable snapshot is reported and ignored, never fatal", async () => {
    const root = project();
    write(root, STATE, "{ not json");
    const w = warnings();
    expect((await getChangedArtifacts(root, { specPath: A, artifactType: "code" }, { onWarning: w.onWarning })).changed_artifacts).toEqual([
      "src/a.ts",
      "src/shared.ts",
    ]);
    expect(w.list.join()).toContain("not valid JSON");
    expect(showState(root).problem).toContain("not valid JSON");
  });

  it("state reset removes the snapshot", async () => {
    const root = project();
    expect(await resetState(root)).toEqual({ removed: false });
    await snapshotState(root);
    expect(await resetState(root)).toEqual({ removed: true });
    expect(existsSync(join(root, STATE))).toBe(false);
  });
});
