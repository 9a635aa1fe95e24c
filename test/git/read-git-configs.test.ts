/**
 * readGitConfigs (src/git/read-ref.ts): several keys from one `git config --get-regexp`, each as readGitConfig
 * reads it with `git config --get` — the fast path the run's commit uses for user.name and user.email
 * (commit-worktree.ts). Property: for generated [user] sections (keys unset, set once or several times, empty,
 * without a value, in other letter cases, values with spaces, quotes, tabs and escaped line breaks, other keys
 * around), the two answer the same for every key; a config file git cannot parse is git's error either way.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GitError } from "../../src/git/exec-git.js";
import { readGitConfig, readGitConfigs } from "../../src/git/read-ref.js";
import { tempRepo } from "../helpers/temp-repo.js";

const KEYS = ["user.name", "user.email", "user.signingkey"];

/** A value as the config file spells it (quoted, with git's escapes), or null for an entry without `=`. */
const value = fc.oneof(
  fc.constant(null),
  fc.constant(""),
  fc.constantFrom("Ada", "ada@example.invalid", "A B  C", " lead and trail ", 'say "hi"', "tab\there", "two\nlines", "back\\slash", "é ü 名前"),
);
const quote = (v: string): string => `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\t/g, "\\t").replace(/\n/g, "\\n")}"`;
const entry = fc.record({ key: fc.constantFrom("name", "email", "Name", "EMAIL", "other"), value });

describe("readGitConfigs", () => {
  it("answers for each key what readGitConfig answers (generated [user] sections)", () => {
    const root = tempRepo({ "a.txt": "a\n" });
    const config = join(root, ".git/config");
    const original = readFileSync(config, "utf8"); // the repository's own settings, kept
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), fc.boolean(), (entries, twoSections) => {
        const lines = entries.map((e) => `\t${e.key}${e.value === null ? "" : ` = ${quote(e.value)}`}`);
        const half = twoSections ? Math.floor(lines.length / 2) : lines.length;
        writeFileSync(
          config,
          `${original}[user]\n${lines.slice(0, half).join("\n")}\n[core]\n\tx = 1\n${twoSections ? `[User]\n${lines.slice(half).join("\n")}\n` : ""}`,
        );
        const fast = readGitConfigs(root, KEYS);
        for (const k of KEYS) expect(fast.get(k), `${k} in\n${lines.join("\n")}`).toBe(readGitConfig(root, k));
      }),
      { numRuns: 25 },
    );
  });

  it("throws git's error for a config file git cannot parse, as readGitConfig does", () => {
    const root = tempRepo({ "a.txt": "a\n" });
    appendFileSync(join(root, ".git/config"), "[user\n\tname = x\n");
    const thrown = (f: () => unknown): unknown => {
      try {
        f();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const slow = thrown(() => readGitConfig(root, "user.name"));
    const fast = thrown(() => readGitConfigs(root, ["user.name", "user.email"]));
    expect(slow).toBeInstanceOf(GitError);
    expect(fast).toBeInstanceOf(GitError);
    expect((fast as GitError).status).toBe((slow as GitError).status);
    expect((fast as GitError).stderr).toBe((slow as GitError).stderr);
  });
});
