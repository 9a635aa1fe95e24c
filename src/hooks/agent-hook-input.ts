/**
 * What a coding agent's tool hook sends on stdin, read into one shape (pure, no dependency:
 * the gate reads it on every tool call). Three dialects, told apart by the event's name and
 * the tool's:
 *
 * - Claude Code: `hook_event_name` PreToolUse / PostToolUse, tools Write `{file_path,
 *   content}`, Edit `{file_path, old_string, new_string, replace_all?}`, MultiEdit
 *   `{file_path, edits: [{old_string, new_string, replace_all?}]}`, Bash `{command}`;
 * - Codex: the same events and output, tools Bash `{command}` and apply_patch (the patch text
 *   in `tool_input.command`, or `input`/`patch`);
 * - Gemini CLI: BeforeTool / AfterTool, tools write_file `{file_path, content}`, replace
 *   `{file_path, old_string, new_string, expected_replacements?}`, run_shell_command
 *   `{command, dir_path?}`;
 * - OpenCode, through the plugin `init --agent opencode` writes, which sends PreToolUse /
 *   PostToolUse with OpenCode's own tools: write `{filePath, content}`, edit `{filePath,
 *   oldString, newString, replaceAll?}`, bash `{command, workdir?}`, patch and apply_patch
 *   `{patchText}`.
 *
 * Paths are made absolute against the session's `cwd`. Input that is not such an object
 * (not JSON, no event or tool name, a file tool without its path) is an AgentHookInputError
 * naming what was expected and what was found; a tool the gate does not know is `other`.
 */
import { isAbsolute, resolve } from "node:path";

export type AgentDialect = "claude" | "codex" | "gemini" | "opencode";
export type HookPhase = "pre" | "post";

export interface StringEdit {
  oldString: string;
  newString: string;
  /** Replace every occurrence (Claude's replace_all), or exactly this many (Gemini's expected_replacements); default one. */
  count: "all" | number;
}

export type ToolCall =
  | { kind: "write"; file: string; content: string }
  | { kind: "edit"; file: string; edits: StringEdit[] }
  | { kind: "shell"; command: string; cwd: string }
  | { kind: "apply_patch"; patch: string }
  | { kind: "other" };

export interface AgentHookInput {
  dialect: AgentDialect;
  phase: HookPhase;
  /** The event's name as sent (the answer names it back). */
  event: string;
  /** The tool's name as sent. */
  toolName: string;
  /** The session's working directory (absolute). */
  cwd: string;
  call: ToolCall;
}

export class AgentHookInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentHookInputError";
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function describe(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return v.length > 40 ? `a string ("${v.slice(0, 37)}…")` : `the string "${v}"`;
  return `${typeof v === "object" ? "an object" : `a ${typeof v}`}`;
}

function text(input: Record<string, unknown>, key: string, tool: string): string {
  const v = input[key];
  if (typeof v !== "string") throw new AgentHookInputError(`${tool}: tool_input.${key}: expected a string, found ${describe(v)}`);
  return v;
}

function filePath(input: Record<string, unknown>, tool: string, cwd: string): string {
  const v = input["file_path"] ?? input["filePath"] ?? input["path"] ?? input["absolute_path"];
  if (typeof v !== "string" || v.length === 0) throw new AgentHookInputError(`${tool}: tool_input.file_path: expected a file path, found ${describe(v)}`);
  return isAbsolute(v) ? v : resolve(cwd, v);
}

const EVENTS: Record<string, [AgentDialect | null, HookPhase]> = {
  PreToolUse: [null, "pre"],
  PostToolUse: [null, "post"],
  BeforeTool: ["gemini", "pre"],
  AfterTool: ["gemini", "post"],
};

/**
 * Read the hook's stdin. `fallbackCwd`: where relative paths are taken from when the input
 * names no `cwd` (the project directory the agent exported, else the process's).
 */
export function parseAgentHookInput(raw: string, fallbackCwd: string): AgentHookInput {
  const trimmed = raw.trim();
  if (trimmed.length === 0) throw new AgentHookInputError("no input: expected the tool call as JSON on stdin (Claude Code, Codex and Gemini CLI send it)");
  let data: unknown;
  try {
    data = JSON.parse(trimmed);
  } catch (e) {
    throw new AgentHookInputError(`the input is not JSON (${(e as Error).message}): expected the tool call as one JSON object on stdin`);
  }
  if (!isObject(data)) throw new AgentHookInputError(`expected the tool call as a JSON object, found ${describe(data)}`);
  const event = data["hook_event_name"];
  if (typeof event !== "string")
    throw new AgentHookInputError(`hook_event_name: expected PreToolUse, PostToolUse, BeforeTool or AfterTool, found ${describe(event)}`);
  const known = EVENTS[event];
  if (known === undefined)
    throw new AgentHookInputError(
      `hook_event_name: "${event}" is not a tool event; ` +
        "register noma-reconcile agent-hook for PreToolUse and PostToolUse (Gemini CLI: BeforeTool and AfterTool)",
    );
  const toolName = data["tool_name"];
  if (typeof toolName !== "string" || toolName.length === 0) throw new AgentHookInputError(`tool_name: expected the tool's name, found ${describe(toolName)}`);
  const cwdField = data["cwd"];
  const cwd = typeof cwdField === "string" && isAbsolute(cwdField) ? cwdField : fallbackCwd;
  const toolInput = data["tool_input"];
  const opencode = OPENCODE_TOOLS.has(toolName) || (isObject(toolInput) && typeof toolInput["patchText"] === "string");
  const dialect: AgentDialect = known[0] ?? (opencode ? "opencode" : toolName === "apply_patch" ? "codex" : "claude");
  const call = toolCall(toolName, toolInput, cwd);
  return { dialect, phase: known[1], event, toolName, cwd, call };
}

function toolCall(tool: string, toolInput: unknown, cwd: string): ToolCall {
  const kind = TOOL_KINDS[tool];
  if (kind === undefined) return { kind: "other" };
  if (!isObject(toolInput)) throw new AgentHookInputError(`${tool}: tool_input: expected an object, found ${describe(toolInput)}`);
  switch (kind) {
    case "write":
      return { kind, file: filePath(toolInput, tool, cwd), content: text(toolInput, "content", tool) };
    case "edit": {
      const file = filePath(toolInput, tool, cwd);
      if (tool === "MultiEdit") {
        const edits = toolInput["edits"];
        if (!Array.isArray(edits) || edits.length === 0)
          throw new AgentHookInputError(`${tool}: tool_input.edits: expected a list of edits, found ${describe(edits)}`);
        return {
          kind,
          file,
          edits: edits.map((e, i) => {
            if (!isObject(e)) throw new AgentHookInputError(`${tool}: tool_input.edits[${i}]: expected an object, found ${describe(e)}`);
            return stringEdit(e, `${tool}: tool_input.edits[${i}]`);
          }),
        };
      }
      return { kind, file, edits: [stringEdit(toolInput, tool)] };
    }
    case "shell": {
      const dir = toolInput["dir_path"] ?? toolInput["directory"] ?? toolInput["workdir"];
      return { kind, command: text(toolInput, "command", tool), cwd: typeof dir === "string" && dir.length > 0 ? resolve(cwd, dir) : cwd };
    }
    case "apply_patch": {
      const patch = toolInput["command"] ?? toolInput["input"] ?? toolInput["patch"] ?? toolInput["patchText"];
      if (typeof patch !== "string") throw new AgentHookInputError(`${tool}: tool_input.command: expected the patch text, found ${describe(patch)}`);
      return { kind, patch };
    }
  }
}

function stringEdit(e: Record<string, unknown>, where: string): StringEdit {
  const oldString = e["old_string"] ?? e["oldString"];
  const newString = e["new_string"] ?? e["newString"];
  if (typeof oldString !== "string") throw new AgentHookInputError(`${where}: old_string: expected a string, found ${describe(oldString)}`);
  if (typeof newString !== "string") throw new AgentHookInputError(`${where}: new_string: expected a string, found ${describe(newString)}`);
  const expected = e["expected_replacements"];
  const count: StringEdit["count"] =
    e["replace_all"] === true || e["allow_multiple"] === true
      ? "all"
      : typeof expected === "number" && Number.isInteger(expected) && expected > 0
        ? expected
        : 1;
  return { oldString, newString, count };
}

/** OpenCode's own tool names (its plugin passes them as they are). */
const OPENCODE_TOOLS: ReadonlySet<string> = new Set(["write", "edit", "bash", "patch"]);

/** The tools the gate reads, by the name each agent gives them. */
const TOOL_KINDS: Record<string, Exclude<ToolCall["kind"], "other">> = {
  write: "write",
  edit: "edit",
  bash: "shell",
  patch: "apply_patch",
  Write: "write",
  Edit: "edit",
  MultiEdit: "edit",
  Bash: "shell",
  apply_patch: "apply_patch",
  write_file: "write",
  replace: "edit",
  run_shell_command: "shell",
};

/** The tool's edits applied to `text` as the tool applies them, or why the tool would fail. */
export function applyStringEdits(text: string, edits: readonly StringEdit[]): { text: string } | { error: string } {
  let current = text;
  for (const [i, e] of edits.entries()) {
    const which = edits.length > 1 ? `edit ${i + 1}: ` : "";
    if (e.oldString.length === 0) return { error: `${which}old_string is empty` };
    let found = 0;
    for (let at = current.indexOf(e.oldString); at !== -1; at = current.indexOf(e.oldString, at + e.oldString.length)) found++;
    if (found === 0) return { error: `${which}old_string does not occur in the document` };
    if (e.count !== "all" && found !== e.count) return { error: `${which}old_string occurs ${found} times, not ${e.count} (the tool would refuse the edit)` };
    current = current.split(e.oldString).join(e.newString);
  }
  return { text: current };
}
