/**
 * The gate's parsers, on any input (fast-check): the shell reader (shell-words.ts,
 * shell-writes.ts, brace expansion), Codex's patch text, the hook's stdin, and the
 * settings merge — never throwing anything but their own errors, never looping, and
 * answering what their contracts say for generated inputs whose answer is known:
 *
 * - a command writing a quoted or unquoted path through any redirection or writing command,
 *   behind any wrapper and separator, names that path; read-only commands name nothing;
 * - a Codex patch built from file operations reads back as those operations, and an update
 *   applied to the file's text gives the text the hunks describe;
 * - a settings file of any JSON object gains exactly our hooks, keeps its data, and a
 *   second merge changes nothing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AgentHookInputError,
  AgentSettingsError,
  AGENT_HOOKS,
  applyCodexUpdate,
  expandBraces,
  mergeAgentSettings,
  parseAgentHookInput,
  parseCodexPatch,
  parseShell,
  shellWrites,
} from "../../src/internal.js";
import { literalOf } from "../../src/hooks/shell-words.js";

const RUNS = { numRuns: 300 };
const shellChars = fc.constantFrom(..."ab.-_/ *?[]{},;&|<>()'\"\\$`~#=\n\t0123456789".split(""));

describe("the shell reader", () => {
  it("never throws and always ends, on any text", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.array(shellChars, { maxLength: 200 }).map((a) => a.join("")),
        ),
        (text) => {
          const parsed = parseShell(text);
          expect(Array.isArray(parsed.commands)).toBe(true);
          for (const w of shellWrites(text)) expect(typeof w.target).toBe("string");
        },
      ),
      RUNS,
    );
  });

  const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
  const path = fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => `${parts.join("/")}.noma`);
  const quote = (p: string, how: number): string => (how === 0 ? p : how === 1 ? `'${p}'` : how === 2 ? `"${p}"` : p.replace(/\//g, "\\/"));
  const writer = fc.constantFrom(
    (p: string) => `echo hi > ${p}`,
    (p: string) => `printf x >> ${p}`,
    (p: string) => `cat a &> ${p}`,
    (p: string) => `sed -i 's/a/b/' ${p}`,
    (p: string) => `sed -i.bak -e 's/a/b/' ${p}`,
    (p: string) => `perl -pi -e 's/a/b/' ${p}`,
    (p: string) => `tee -a ${p} < src.txt`,
    (p: string) => `cp -f src.txt ${p}`,
    (p: string) => `mv -- src.txt ${p}`,
    (p: string) => `truncate -s 0 ${p}`,
    (p: string) => `dd if=/dev/zero of=${p}`,
    (p: string) => `awk -i inplace '{print}' ${p}`,
    (p: string) => `git checkout HEAD -- ${p}`,
  );
  const wrapper = fc.constantFrom("", "sudo ", "env A=1 ", "command ", "nice -n 5 ", "timeout 10 ", "time ");
  const before = fc.constantFrom("", "cd . && ", "true; ", "ls | ", "if true; then ", "( ", "x=$(date); ");
  const after = fc.constantFrom("", " && echo done", "; ls", " || exit 1", " # a comment", "; fi", " )");

  it("names the file any writing command writes, however it is quoted, wrapped or chained", () => {
    fc.assert(
      fc.property(path, fc.integer({ min: 0, max: 3 }), writer, wrapper, before, after, (p, how, write, wrap, pre, post) => {
        const command = `${pre}${wrap}${write(quote(p, how))}${post}`;
        const targets = shellWrites(command).map((w) => literalOf(w.target));
        expect(targets, command).toContain(p);
      }),
      RUNS,
    );
  });

  it("names nothing for commands that only read", () => {
    const reader = fc.constantFrom(
      (p: string) => `cat ${p}`,
      (p: string) => `grep -n x ${p}`,
      (p: string) => `sed -n '1,3p' ${p}`,
      (p: string) => `head -5 ${p} | wc -l`,
      (p: string) => `git diff -- ${p}`,
      (p: string) => `noma-reconcile check ${p} 2>&1`,
      (p: string) => `diff ${p} other.noma < /dev/null`,
      (p: string) => `perl -ne 'print if /x/' ${p}`,
      (p: string) => `awk '{print $1}' ${p}`,
    );
    fc.assert(
      fc.property(path, reader, wrapper, (p, read, wrap) => {
        const command = `${wrap}${read(p)}`;
        expect(shellWrites(command), command).toEqual([]);
      }),
      RUNS,
    );
  });

  it("brace expansion gives every combination, in order", () => {
    fc.assert(
      fc.property(fc.array(fc.array(name, { minLength: 2, maxLength: 3 }), { minLength: 1, maxLength: 3 }), (groups) => {
        const w = parseShell(`echo ${groups.map((g) => `{${g.join(",")}}`).join("-")}`).commands[0]!.words[1]!;
        const expected = groups.reduce<string[]>((acc, g) => acc.flatMap((a) => g.map((x) => (a === "" ? x : `${a}-${x}`))), [""]);
        expect(expandBraces(w.value)).toEqual(expected);
      }),
      RUNS,
    );
  });
});

describe("Codex's apply_patch text", () => {
  it("never throws on any text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        for (const op of parseCodexPatch(text)) expect(["add", "update", "delete"]).toContain(op.op);
      }),
      RUNS,
    );
  });

  const line = fc.stringMatching(/^[a-z ]{0,12}$/).filter((l) => !l.startsWith("*"));
  it("an update's hunks applied to the file give the text they describe", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 3, maxLength: 12 }), fc.nat(), fc.array(line, { maxLength: 3 }), (lines, at, added) => {
        const unique = lines.map((l, i) => `${i} ${l}`);
        const i = at % unique.length;
        const text = `${unique.join("\n")}\n`;
        const patch = [
          "*** Begin Patch",
          "*** Update File: docs/a.noma",
          "@@",
          ...(i > 0 ? [` ${unique[i - 1]}`] : []),
          `-${unique[i]}`,
          ...added.map((a) => `+${a}`),
          "*** End Patch",
        ].join("\n");
        const [op] = parseCodexPatch(patch);
        expect(op).toMatchObject({ op: "update", path: "docs/a.noma" });
        const next = [...unique.slice(0, i), ...added, ...unique.slice(i + 1)];
        if (op?.op !== "update") throw new Error("expected an update");
        expect(applyCodexUpdate(text, op.hunks)).toBe(`${next.join("\n")}\n`);
      }),
      RUNS,
    );
  });
});

describe("the hook's stdin", () => {
  it("any text is read or refused with an AgentHookInputError, never another error", () => {
    const jsonish = fc.oneof(
      fc.string(),
      fc.json(),
      fc
        .record({
          hook_event_name: fc.constantFrom("PreToolUse", "PostToolUse", "BeforeTool", "AfterTool", "Stop", 3),
          tool_name: fc.constantFrom("Write", "Edit", "MultiEdit", "Bash", "apply_patch", "write_file", "replace", "run_shell_command", "Read", ""),
          tool_input: fc.oneof(
            fc.dictionary(fc.constantFrom("file_path", "content", "old_string", "new_string", "edits", "command"), fc.jsonValue()),
            fc.jsonValue(),
          ),
          cwd: fc.oneof(fc.constant("/tmp"), fc.string()),
        })
        .map((o) => JSON.stringify(o)),
    );
    fc.assert(
      fc.property(jsonish, (raw) => {
        try {
          const input = parseAgentHookInput(raw, "/tmp");
          expect(["pre", "post"]).toContain(input.phase);
        } catch (e) {
          expect(e).toBeInstanceOf(AgentHookInputError);
        }
      }),
      RUNS,
    );
  });
});

describe("the settings merge", () => {
  const plan = AGENT_HOOKS.claude.plan;
  it("any JSON object gains exactly our hooks, keeps its data, and a second merge changes nothing; anything else is refused untouched", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ a: v, hooks: { Stop: [] } }, null, 2)),
        ),
        (text) => {
          let merged: ReturnType<typeof mergeAgentSettings>;
          try {
            merged = mergeAgentSettings(text, "settings.json", plan);
          } catch (e) {
            expect(e).toBeInstanceOf(AgentSettingsError);
            return;
          }
          const before = JSON.parse(text) as Record<string, unknown>;
          const after = JSON.parse(merged.text) as Record<string, any>;
          for (const key of Object.keys(before)) if (key !== "hooks") expect(after[key]).toEqual(before[key]);
          for (const h of plan.hooks) expect(after["hooks"][h.event]).toContainEqual({ matcher: h.matcher, hooks: [{ type: "command", command: h.command }] });
          expect(mergeAgentSettings(merged.text, "settings.json", plan)).toEqual({ text: merged.text, action: "unchanged", added: [] });
        },
      ),
      RUNS,
    );
  });
});
