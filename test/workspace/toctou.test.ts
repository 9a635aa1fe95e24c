/**
 * A symbolic link swapped in after the check (time of check → time of use):
 * - deterministically, through the library's afterCheck hook: between the check and the
 *   first use, a checked directory or file is replaced by a link to a directory outside
 *   holding a file of the same name. read_file, list_files, edit_file and apply_patch
 *   answer path_changed; nothing outside is read, created or changed.
 * - as a race, through the real HTTP server: a process flips a directory between a
 *   real directory and a link out as fast as it can while 4 clients read, list and
 *   write through it for a few seconds. No answer ever carries the outside file's
 *   content, nothing outside changes, and the ledger verifies.
 * On Linux the guarantee comes from /proc/self/fd (see src/workspace/pinned-dir.ts);
 * elsewhere this file checks the narrowed window the same way.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasProcFd } from "../../src/workspace/pinned-dir.js";
import { runWorkspaceTool } from "../../src/workspace/run-workspace-tool.js";
import { verifyLedger } from "../../src/workspace/verify-ledger.js";
import { openWorkspace } from "../../src/workspace/workspace.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";
import { HttpServer } from "./helpers/http-server.js";

const SECRET = "OUTSIDE-SECRET";

function outsideDir(): string {
  const outside = tempDir("nr-toctou-out-");
  writeFileSync(join(outside, "a.txt"), `${SECRET}\n`);
  return outside;
}

const listing = (d: string) => readdirSync(d).sort();

describe("a symbolic link swapped in after the check", () => {
  if (!hasProcFd()) console.warn("toctou.test.ts: no /proc/self/fd here: the fallback (re-checked real paths) is what is tested");

  for (const what of ["directory", "file"] as const) {
    it(`is refused as path_changed when the ${what} is swapped (read_file, list_files, edit_file, apply_patch)`, async () => {
      const outside = outsideDir();
      const requests: Array<[Parameters<typeof runWorkspaceTool>[1], Record<string, unknown>]> = [
        ["read_file", { path: "dir/a.txt" }],
        ["edit_file", { path: "dir/a.txt", contents: "pwned\n" }],
        ["apply_patch", { path: "dir/a.txt", hunks: [{ start_line: 1, end_line: 1, replacement: "pwned" }] }],
        ["edit_file", { path: "dir/new.txt", contents: "pwned\n", create_if_missing: true }],
        ...(what === "directory" ? ([["list_files", { path: "dir" }]] as Array<[Parameters<typeof runWorkspaceTool>[1], Record<string, unknown>]>) : []),
      ];
      for (const [tool, args] of requests) {
        const root = tempRepo({ "dir/a.txt": "inside\n" });
        const swap = (): void => {
          if (what === "directory") {
            renameSync(join(root, "dir"), join(root, "dir.moved"));
            symlinkSync(outside, join(root, "dir"));
          } else {
            rmSync(join(root, "dir/a.txt"));
            symlinkSync(join(outside, "a.txt"), join(root, "dir/a.txt"));
          }
        };
        let swapped = false;
        const ws = openWorkspace(root, {
          afterCheck: () => {
            if (!swapped) {
              swapped = true;
              swap();
            }
          },
        });
        const r = await runWorkspaceTool(ws, tool, args);
        expect(swapped).toBe(true);
        if (what === "file" && tool === "edit_file" && args["path"] === "dir/new.txt") {
          // the new file is not the swapped one: it lands inside, in the real directory
          expect(r.body["success"], JSON.stringify(r.body)).toBe(true);
          expect(readFileSync(join(root, "dir/new.txt"), "utf8")).toBe("pwned\n");
        } else {
          expect(r.body, `${tool} ${JSON.stringify(args)}`).toMatchObject({ success: false, code: "path_changed" });
        }
        expect(JSON.stringify(r.body)).not.toContain(SECRET);
        expect(listing(outside)).toEqual(["a.txt"]);
        expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe(`${SECRET}\n`);
        expect(verifyLedger(readFileSync(join(root, "docs/evidence_ledger.tools.log"))).ok).toBe(true);
      }
    });
  }

  it("a directory flipped between real and a link out, as fast as possible, never lets a request through it (real HTTP server, 4 clients)", async () => {
    const outside = outsideDir();
    const root = tempRepo({ "race/a.txt": "inside\n", "tools/allowed_commands.toml": "" });
    writeFileSync(join(root, ".gitignore"), "race*\n");
    const s = await new HttpServer(root).ready();
    // The flipper: a separate process renaming the real directory aside and putting a link in its place, and back.
    const flipper = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs"); const [root, outside] = process.argv.slice(1); const end = Date.now() + 3000;
         while (Date.now() < end) {
           try { fs.renameSync(root + "/race", root + "/race.real"); fs.symlinkSync(outside, root + "/race"); } catch {}
           try { fs.unlinkSync(root + "/race"); fs.renameSync(root + "/race.real", root + "/race"); } catch {}
         }`,
        root,
        outside,
      ],
      { stdio: "ignore" },
    );
    const flipped = new Promise((resolve) => flipper.on("close", resolve));
    const seen: Record<string, number> = {};
    let running = true;
    void flipped.then(() => (running = false));
    const client = async (k: number): Promise<void> => {
      let i = 0;
      while (running) {
        const [tool, args] =
          i % 4 === 0
            ? ["read_file", { path: "race/a.txt" }]
            : i % 4 === 1
              ? ["list_files", { path: "race" }]
              : i % 4 === 2
                ? ["edit_file", { path: "race/a.txt", contents: `client ${k} ${i}\n` }]
                : ["edit_file", { path: `race/c${k}-${i}.txt`, contents: "new\n", create_if_missing: true }];
        const r = await s.post(tool, args);
        const key = r.body["success"] === true ? `${tool}:ok` : `${tool}:${String(r.body["code"])}`;
        seen[key] = (seen[key] ?? 0) + 1;
        expect(JSON.stringify(r.body)).not.toContain(SECRET);
        if (tool === "list_files" && r.body["success"] === true) expect((r.body["entries"] as unknown[]).length).toBeGreaterThan(0);
        i++;
      }
    };
    await Promise.all([0, 1, 2, 3].map(client));
    await flipped;
    expect(listing(outside)).toEqual(["a.txt"]);
    expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe(`${SECRET}\n`);
    expect((await s.stop()).code).toBe(0);
    const v = verifyLedger(readFileSync(join(root, "docs/evidence_ledger.tools.log")));
    expect(v.ok).toBe(true);
    // Both sides of the race happened: some requests went through the real directory, some were refused.
    const total = Object.values(seen).reduce((a, b) => a + b, 0);
    // One line per request, and an intent line before each that changed something.
    const phases = readFileSync(join(root, "docs/evidence_ledger.tools.log"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => (JSON.parse(l) as { details: { phase?: string } }).details.phase);
    expect(phases.filter((p) => p !== "intent")).toHaveLength(total);
    expect(v.interrupted).toEqual([]);
    console.log(`toctou race: ${total} requests`, seen);
  });
});
