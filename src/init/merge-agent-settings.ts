/**
 * Register the coding agent's gate in an agent's JSON settings (pure): `.claude/settings.json`,
 * `.gemini/settings.json`, `.codex/hooks.json` — all the same shape,
 * `{"hooks": {"<Event>": [{"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}]}}`
 * — and, where the agent reads its MCP servers there, our server's entry (`mcpServers` in
 * Gemini CLI's file, `mcp` in OpenCode's `opencode.json`).
 *
 * The edit is an insertion, never a rewrite: each missing piece (the `hooks` object, an
 * event's list, our matcher group, our server) goes in after the last entry of the object or
 * list it joins, indented like the file, with its line ends; every other byte is kept. The
 * result must then parse to exactly the old data plus our additions. Already there (an event
 * with any hook running `noma-reconcile … agent-hook`, whatever its matcher or form: a user's
 * own is respected; a server named `noma-reconcile`): nothing changes. A file that is not
 * strict JSON (comments included), holds a key twice, has another shape where ours goes
 * (`hooks` not an object, an event not a list), or whose edit does not check out is an
 * AgentSettingsError: left untouched, with the snippet to add by hand.
 */
import { isDeepStrictEqual } from "node:util";
import { NomaError } from "../errors/noma-error.js";
import { findJsonSyntaxError } from "../config/json-syntax-error.js";
import { type JsonObjectSpan, type JsonSpan, parseJsonSpans } from "../patch/json-spans.js";

/** One hook to register: run `command` for `event` on the tools `matcher` names. */
export interface HookRegistration {
  event: string;
  matcher: string;
  command: string;
  /** Extra keys of the hook object (Gemini CLI's `name`, a `timeout`). */
  extra?: Record<string, string | number>;
}

export interface AgentSettingsPlan {
  hooks: readonly HookRegistration[];
  /** A server entry to register beside them, under `key` (default `mcpServers`; OpenCode's is `mcp`). */
  mcpServer?: { name: string; entry: Record<string, unknown>; key?: string };
}

export interface AgentSettingsMerge {
  text: string;
  action: "create" | "update" | "unchanged";
  /** What was added: "PreToolUse", "PostToolUse", "mcpServers.noma-reconcile", … */
  added: string[];
}

export class AgentSettingsError extends NomaError {
  static override readonly errorName: string = "AgentSettingsError";
  constructor(
    readonly file: string,
    readonly why: string,
    readonly snippet: string,
  ) {
    super("agent-settings-unsafe", `${file}: ${why}; it was left untouched: add this yourself:\n${snippet}`);
  }
}

/** Whether a hook command is the gate (any form: our launcher, npx, a path to the bin). */
export function isGateCommand(command: unknown): boolean {
  return typeof command === "string" && /noma-reconcile/.test(command) && /\bagent-hook\b/.test(command);
}

/** The JSON a user adds by hand: our part of the settings. */
export function settingsSnippet(plan: AgentSettingsPlan): string {
  return `${JSON.stringify(
    ourPart(
      plan,
      plan.hooks.map((h) => h.event),
      plan.mcpServer !== undefined,
    ),
    null,
    2,
  )}\n`;
}

function hookGroup(h: HookRegistration): Record<string, unknown> {
  return { matcher: h.matcher, hooks: [{ type: "command", command: h.command, ...h.extra }] };
}

/** Our part of the settings: the missing events' groups and, when wanted, our server. */
function ourPart(plan: AgentSettingsPlan, events: readonly string[], withServer: boolean): Record<string, unknown> {
  const hooks: Record<string, unknown[]> = {};
  for (const h of plan.hooks) if (events.includes(h.event)) (hooks[h.event] ??= []).push(hookGroup(h));
  const out: Record<string, unknown> = {};
  if (Object.keys(hooks).length > 0) out["hooks"] = hooks;
  if (withServer && plan.mcpServer !== undefined) out[serversKey(plan)] = { [plan.mcpServer.name]: plan.mcpServer.entry };
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The first key an object of the text holds twice (JSON.parse would keep only the last), or null. */
function duplicateKey(span: JsonSpan): string | null {
  if (span.kind === "array") {
    for (const item of span.items) {
      const d = duplicateKey(item);
      if (d !== null) return d;
    }
  } else if (span.kind === "object") {
    const seen = new Set<string>();
    for (const e of span.entries) {
      if (seen.has(e.key)) return e.key;
      seen.add(e.key);
      const d = duplicateKey(e.value);
      if (d !== null) return d;
    }
  }
  return null;
}

function entryOf(obj: JsonObjectSpan, key: string): JsonSpan | undefined {
  return obj.entries.find((e) => e.key === key)?.value;
}

export function mergeAgentSettings(text: string | null, file: string, plan: AgentSettingsPlan): AgentSettingsMerge {
  const snippet = settingsSnippet(plan);
  const unsafe = (why: string): never => {
    throw new AgentSettingsError(file, why, snippet);
  };
  if (text === null) return { text: snippet, action: "create", added: [...new Set(plan.hooks.map((h) => h.event)), ...serverAdded(plan)] };
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  let source = text.slice(bom.length);
  let data: unknown;
  let spans: JsonSpan;
  try {
    data = JSON.parse(source);
    spans = parseJsonSpans(source, 200);
  } catch (e) {
    const at = findJsonSyntaxError(source);
    const first = (e as Error).message.split("\n")[0];
    return unsafe(`not strict JSON (${at !== null ? `line ${at.line}, column ${at.column}: ${at.message}` : first}; comments are not JSON)`);
  }
  if (!isObject(data) || spans.kind !== "object") return unsafe("the top level is not a JSON object");
  const dup = duplicateKey(spans);
  if (dup !== null) return unsafe(`the key "${dup}" appears twice in one object`);
  const hooks = data["hooks"];
  if (hooks !== undefined && !isObject(hooks)) return unsafe('"hooks" is not an object');
  const missing: string[] = [];
  for (const event of [...new Set(plan.hooks.map((h) => h.event))]) {
    const list = isObject(hooks) ? hooks[event] : undefined;
    if (list === undefined) {
      missing.push(event);
      continue;
    }
    if (!Array.isArray(list)) return unsafe(`"hooks.${event}" is not a list`);
    const present = list.some((g) => isObject(g) && Array.isArray(g["hooks"]) && g["hooks"].some((h) => isObject(h) && isGateCommand(h["command"])));
    if (!present) missing.push(event);
  }
  const key = serversKey(plan);
  const servers = data[key];
  if (plan.mcpServer !== undefined && servers !== undefined && !isObject(servers)) return unsafe(`"${key}" is not an object`);
  const wantServer = plan.mcpServer !== undefined && !(isObject(servers) && Object.hasOwn(servers, plan.mcpServer.name));
  if (missing.length === 0 && !wantServer) return { text, action: "unchanged", added: [] };

  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  const unit = /\n([ \t]+)\S/.exec(source)?.[1] ?? "  ";
  const insert = (path: string[], build: (depth: number) => { key?: string; value: unknown }): void => {
    const root = parseJsonSpans(source, 200) as JsonObjectSpan;
    let span: JsonSpan = root;
    for (const key of path) span = span.kind === "object" ? (entryOf(span, key) ?? span) : span;
    const depth = path.length;
    const { key, value } = build(depth);
    const inner = unit.repeat(depth + 1);
    const last = span.kind === "object" ? span.entries[span.entries.length - 1] : span.kind === "array" ? span.items[span.items.length - 1] : undefined;
    // A container written on one line gets the item on that line, compact; otherwise the item on lines of its own, indented.
    const oneLine = last !== undefined && !/[\r\n]/.test(source.slice(span.start, span.end));
    const body = oneLine ? JSON.stringify(value) : JSON.stringify(value, null, unit).split("\n").join(`${eol}${inner}`);
    const item = `${key !== undefined ? `${JSON.stringify(key)}: ` : ""}${body}`;
    if (last !== undefined && oneLine) source = `${source.slice(0, last.end)}, ${item}${source.slice(last.end)}`;
    else if (last !== undefined) source = `${source.slice(0, last.end)},${eol}${inner}${item}${source.slice(last.end)}`;
    else {
      // An empty object or list: the item on its own line, the closing bracket on the next.
      const close = span.end - 1;
      source = `${source.slice(0, span.start + 1)}${eol}${inner}${item}${eol}${unit.repeat(depth)}${source.slice(close)}`;
    }
  };
  const hooksMissing = missing;
  if (hooksMissing.length > 0) {
    if (hooks === undefined) insert([], () => ({ key: "hooks", value: ourPart(plan, hooksMissing, false)["hooks"] }));
    else {
      for (const event of hooksMissing) {
        const groups = plan.hooks.filter((h) => h.event === event).map(hookGroup);
        if ((hooks as Record<string, unknown>)[event] === undefined) insert(["hooks"], () => ({ key: event, value: groups }));
        else for (const g of groups) insert(["hooks", event], () => ({ value: g }));
      }
    }
  }
  if (wantServer) {
    const { name, entry } = plan.mcpServer!;
    if (servers === undefined) insert([], () => ({ key, value: { [name]: entry } }));
    else insert([key], () => ({ key: name, value: entry }));
  }
  // The edit must hold exactly the old data plus ours.
  const expected = structuredClone(data) as Record<string, unknown>;
  if (hooksMissing.length > 0) {
    const h = (expected["hooks"] ??= {}) as Record<string, unknown[]>;
    for (const event of hooksMissing) (h[event] ??= []).push(...plan.hooks.filter((x) => x.event === event).map(hookGroup));
  }
  if (wantServer) ((expected[key] ??= {}) as Record<string, unknown>)[plan.mcpServer!.name] = plan.mcpServer!.entry;
  let after: unknown;
  try {
    after = JSON.parse(source);
  } catch {
    after = undefined;
  }
  if (!isDeepStrictEqual(after, expected)) return unsafe("the edit would not give exactly its old content plus ours");
  return { text: bom + source, action: "update", added: [...hooksMissing, ...(wantServer ? [`${key}.${plan.mcpServer!.name}`] : [])] };
}

function serverAdded(plan: AgentSettingsPlan): string[] {
  return plan.mcpServer !== undefined ? [`${serversKey(plan)}.${plan.mcpServer.name}`] : [];
}

function serversKey(plan: AgentSettingsPlan): string {
  return plan.mcpServer?.key ?? "mcpServers";
}
