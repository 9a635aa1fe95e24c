/**
 * Add our entry to a hook manager's YAML file as a minimal text edit (pure):
 * the new lines go in after the last line of the block they join, every other
 * byte (comments, order, other hooks, line ends) stays as it was. Nothing is
 * re-serialised. The edit is then checked by parsing both texts: the new one
 * must hold exactly the old data plus our entry; anything else — a file that
 * does not parse, flow style where we would write, tabs, several documents —
 * is "unsafe" and the caller leaves the file alone.
 */
import { isDeepStrictEqual } from "node:util";
import { yamlLib } from "../yaml/yaml-lib.js";
import { SPEC_MAX_ALIAS_COUNT } from "../yaml/yaml-to-data.js";
import { lefthookCommandLines, lefthookCommandValue, MANAGER_ENTRY_NAME, preCommitEntryLines, preCommitEntryValue } from "./hook-manager-entries.js";

export type ManagerEdit = { action: "add"; text: string } | { action: "present" } | { action: "unsafe"; reason: string };

interface Lines {
  lines: string[];
  eol: string;
}

function splitLines(text: string): Lines {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return { lines: text.split("\n").map((l) => l.replace(/\r$/, "")), eol };
}

function isContent(line: string): boolean {
  const t = line.trim();
  return t.length > 0 && !t.startsWith("#");
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The line holding `key:` at `indent` within [from, to), and whether a value follows on that line. */
function findKey(lines: string[], key: string, indent: number, from: number, to: number): { index: number; inline: boolean } | null {
  const re = new RegExp(`^ {${indent}}(?:${key}|"${key}"|'${key}')[ ]*:(.*)$`);
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    if (!isContent(line) || indentOf(line) !== indent) continue;
    const m = re.exec(line);
    if (m === null) continue;
    const rest = m[1]!.trim();
    return { index: i, inline: rest.length > 0 && !rest.startsWith("#") };
  }
  return null;
}

/** The index of the last line of the block under the key at `keyIndex` (indent `indent`): more indented lines, or `- ` items at the key's indent. */
function blockEnd(lines: string[], keyIndex: number, indent: number): number {
  let last = keyIndex;
  for (let i = keyIndex + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.trim();
    if (t.length === 0) continue;
    const ind = indentOf(line);
    if (t.startsWith("#")) {
      if (ind > indent) last = i;
      continue;
    }
    if (ind > indent || (ind === indent && (t === "-" || t.startsWith("- ")))) last = i;
    else break;
  }
  return last;
}

/** The indent of the first content line in (from, to], or null. */
function firstChildIndent(lines: string[], from: number, to: number): number | null {
  for (let i = from + 1; i <= to; i++) if (isContent(lines[i]!)) return indentOf(lines[i]!);
  return null;
}

function unsafeShape(text: string): string | null {
  const lines = text.split("\n");
  const tab = lines.findIndex((l) => /^ *\t/.test(l));
  if (tab !== -1) return `line ${tab + 1} is indented with a tab`;
  const doc = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)(\s|$)/.test(l));
  if (doc !== -1) return `line ${doc + 1} starts another YAML document`;
  return null;
}

function parse(text: string): { data: unknown } | { error: string } {
  const yaml = yamlLib();
  const docs = yaml.parseAllDocuments(text);
  if (!Array.isArray(docs)) return { error: "not YAML" };
  if (docs.length > 1) return { error: "it holds more than one YAML document" };
  const doc = docs[0];
  if (doc === undefined) return { data: null };
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    return { error: `not valid YAML (line ${e.linePos?.[0]?.line ?? "?"}: ${e.message.split("\n")[0]})` };
  }
  // Aliases bounded as in a spec file: a "billion laughs" file (a few hundred bytes of anchors
  // aliased ten times over, ten levels deep) would otherwise expand for hours.
  try {
    return { data: doc.toJS({ maxAliasCount: SPEC_MAX_ALIAS_COUNT }) };
  } catch (e) {
    const message = (e as Error).message;
    return {
      error: message.startsWith("Excessive alias count")
        ? `its YAML aliases expand too far (more than ${SPEC_MAX_ALIAS_COUNT} alias resolutions: a "billion laughs" file?)`
        : `not valid YAML (${message.split("\n")[0]})`,
    };
  }
}

/** A hook (command) of the user's that already runs our check, however it calls the program. */
function runsCheck(v: unknown): boolean {
  const text = JSON.stringify(v ?? null);
  return text.includes("noma-reconcile check --staged") || text.includes("NOMA_RECONCILE_BIN");
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Insert `block` after line `after` (-1: at the start); a file without a final line end gets one first. */
function insertAfter(l: Lines, after: number, block: string[]): string {
  const lines = [...l.lines];
  const endsWithEol = lines.length > 0 && lines[lines.length - 1] === "";
  if (after === lines.length - 1 && !endsWithEol) lines.push("");
  lines.splice(after + 1, 0, ...block);
  return lines.map((x, i) => (l.eol === "\r\n" && i < lines.length - 1 ? `${x}\r` : x)).join("\n");
}

/** The edit, if the edited text parses to exactly `expected`. */
function check(bom: string, text: string, expected: unknown): ManagerEdit {
  const after = parse(text);
  if ("error" in after || !isDeepStrictEqual(after.data, expected))
    return { action: "unsafe", reason: "its layout is one init cannot add to without rewriting the file" };
  return { action: "add", text: bom + text };
}

/** Append `block` at the end of the file (after its last non-blank line). */
function append(l: Lines, body: string, block: string[]): string {
  if (body.trim().length === 0) return `${body}${block.join(l.eol)}${l.eol}`;
  return insertAfter(
    l,
    l.lines.findLastIndex((x) => x.trim().length > 0),
    block,
  );
}

/** The file split into its BOM and body and parsed, or why it is not safe to edit. */
function readManagerFile(text: string): { bom: string; body: string; data: Record<string, unknown> } | ManagerEdit {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = text.slice(bom.length);
  const shape = unsafeShape(body);
  if (shape !== null) return { action: "unsafe", reason: shape };
  const before = parse(body);
  if ("error" in before) return { action: "unsafe", reason: before.error };
  const data = before.data ?? {};
  if (!isMap(data)) return { action: "unsafe", reason: "its top level is not a mapping" };
  return { bom, body, data };
}

/** `.pre-commit-config.yaml`: our `repo: local` item appended to `repos:`. */
export function addPreCommitEntry(text: string): ManagerEdit {
  const read = readManagerFile(text);
  if ("action" in read) return read;
  const { bom, body, data } = read;
  const repos = data["repos"];
  if (repos !== undefined && repos !== null && !Array.isArray(repos)) return { action: "unsafe", reason: "`repos` is not a list" };
  const present = (Array.isArray(repos) ? repos : []).some(
    (r) => isMap(r) && Array.isArray(r["hooks"]) && r["hooks"].some((h) => isMap(h) && (h["id"] === MANAGER_ENTRY_NAME || runsCheck(h))),
  );
  if (present) return { action: "present" };
  const expected = { ...data, repos: [...(Array.isArray(repos) ? repos : []), preCommitEntryValue()] };
  const l = splitLines(body);
  const key = findKey(l.lines, "repos", 0, 0, l.lines.length);
  let out: string;
  if (key === null) {
    out = append(l, body, ["repos:", ...preCommitEntryLines("  ")]);
  } else {
    const emptyFlow = /^(repos[ ]*:[ ]*)\[\][ ]*(#.*)?$/.exec(l.lines[key.index]!);
    if (key.inline && emptyFlow !== null) {
      // `repos: []` (pre-commit's own starting point): the `[]` gives way to the list.
      const lines = [...l.lines];
      lines[key.index] = `${emptyFlow[1]!.trimEnd()}${emptyFlow[2] !== undefined ? ` ${emptyFlow[2]}` : ""}`;
      return check(bom, insertAfter({ lines, eol: l.eol }, key.index, preCommitEntryLines("  ")), expected);
    }
    if (key.inline) return { action: "unsafe", reason: `line ${key.index + 1}: \`repos:\` has its value on the same line (flow style)` };
    const end = blockEnd(l.lines, key.index, 0);
    const child = firstChildIndent(l.lines, key.index, end);
    out = insertAfter(l, end, preCommitEntryLines(" ".repeat(child ?? 2)));
  }
  return check(bom, out, expected);
}

/** lefthook's file: our command added under `pre-commit: commands:` (created when missing). */
export function addLefthookEntry(text: string): ManagerEdit {
  const read = readManagerFile(text);
  if ("action" in read) return read;
  const { bom, body, data } = read;
  const hook = data["pre-commit"];
  if (hook !== undefined && hook !== null && !isMap(hook)) return { action: "unsafe", reason: "`pre-commit` is not a mapping" };
  const commands = isMap(hook) ? hook["commands"] : undefined;
  if (commands !== undefined && commands !== null && !isMap(commands)) return { action: "unsafe", reason: "`pre-commit.commands` is not a mapping" };
  const jobs = isMap(hook) && Array.isArray(hook["jobs"]) ? hook["jobs"] : [];
  if (
    (isMap(commands) && Object.hasOwn(commands, MANAGER_ENTRY_NAME)) ||
    jobs.some((j) => isMap(j) && j["name"] === MANAGER_ENTRY_NAME) ||
    (isMap(commands) && Object.values(commands).some(runsCheck))
  )
    return { action: "present" };
  const expected = {
    ...data,
    "pre-commit": { ...(isMap(hook) ? hook : {}), commands: { ...(isMap(commands) ? commands : {}), [MANAGER_ENTRY_NAME]: lefthookCommandValue() } },
  };
  const l = splitLines(body);
  const unitMatch = l.lines.find((x) => isContent(x) && indentOf(x) > 0);
  const unit = " ".repeat(unitMatch !== undefined ? indentOf(unitMatch) : 2);
  const top = findKey(l.lines, "pre-commit", 0, 0, l.lines.length);
  let out: string;
  if (top === null) {
    out = append(l, body, ["pre-commit:", `${unit}commands:`, ...lefthookCommandLines(unit + unit, unit)]);
  } else {
    if (top.inline) return { action: "unsafe", reason: `line ${top.index + 1}: \`pre-commit:\` has its value on the same line (flow style)` };
    const end = blockEnd(l.lines, top.index, 0);
    const c = firstChildIndent(l.lines, top.index, end) ?? unit.length;
    const cmd = findKey(l.lines, "commands", c, top.index + 1, end + 1);
    if (cmd === null) {
      out = insertAfter(l, end, [`${" ".repeat(c)}commands:`, ...lefthookCommandLines(" ".repeat(c * 2), " ".repeat(c))]);
    } else {
      if (cmd.inline) return { action: "unsafe", reason: `line ${cmd.index + 1}: \`commands:\` has its value on the same line (flow style)` };
      const cend = blockEnd(l.lines, cmd.index, c);
      const g = firstChildIndent(l.lines, cmd.index, cend) ?? c * 2;
      out = insertAfter(l, cend, lefthookCommandLines(" ".repeat(g), " ".repeat(Math.max(g - c, 2))));
    }
  }
  return check(bom, out, expected);
}
