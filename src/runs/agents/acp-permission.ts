/**
 * Pure: the answer to an ACP agent's permission request (`session/request_permission`),
 * by the agent's configured policy (run-config.ts `permissions`, DEFAULT_PERMISSIONS
 * for what it leaves out). The tool call's kind picks the rule:
 *
 * - read, search → `read`; edit, delete, move → `write`; execute → `execute`;
 *   fetch → `fetch`; anything else (think, switch_mode, other, none) → `other`;
 * - `allow` / `deny` answer as they say; `worktree` allows only when the call names at
 *   least one location and every one is inside the work tree — for a plan or check
 *   agent's writes, inside its step directory (those roles change no repository file).
 *
 * The decision becomes one of the options the agent offered: a one-time option first
 * (`allow_once`, `reject_once`: the next call is judged again), else the `always` one
 * of the same sense; when the agent offered no option of that sense, the outcome is
 * `cancelled` (a denial the protocol always understands; an allowed call with no allow
 * option is thereby denied). Containment itself (symbolic
 * links resolved) is the caller's `inside` function.
 */
import type { AgentRole } from "../agent-step.js";
import { DEFAULT_PERMISSIONS, type PermissionKind, type PermissionPolicy } from "../run-config.js";

export interface PermissionOptionLike {
  optionId: string;
  kind: string;
  name?: string;
}

export interface PermissionRequestLike {
  toolCall: { kind?: string | null; title?: string | null; locations?: ReadonlyArray<{ path: string }> | null };
  options: readonly PermissionOptionLike[];
}

export interface PermissionAnswer {
  allow: boolean;
  kind: PermissionKind;
  /** Why, in words (recorded in the ledger and the step's events). */
  reason: string;
  outcome: { outcome: "selected"; optionId: string } | { outcome: "cancelled" };
}

export function permissionKind(toolKind: string | null | undefined): PermissionKind {
  switch (toolKind) {
    case "read":
    case "search":
      return "read";
    case "edit":
    case "delete":
    case "move":
      return "write";
    case "execute":
      return "execute";
    case "fetch":
      return "fetch";
    default:
      return "other";
  }
}

/** Where `worktree` allows: the work tree, or (a plan or check agent's writes) only its step directory. */
export type Place = "worktree" | "step_dir";

export function decidePermission(
  request: PermissionRequestLike,
  policy: Partial<PermissionPolicy> | undefined,
  role: AgentRole,
  inside: (path: string, place: Place, write: boolean) => boolean,
): PermissionAnswer {
  const kind = permissionKind(request.toolCall.kind);
  const rule = policy?.[kind] ?? DEFAULT_PERMISSIONS[kind];
  let allow: boolean;
  let reason: string;
  if (rule !== "worktree") {
    allow = rule === "allow";
    reason = `permissions.${kind} is ${rule}`;
  } else {
    const place: Place = kind === "write" && (role === "plan" || role === "check") ? "step_dir" : "worktree";
    const where = place === "step_dir" ? "the step directory" : "the work tree";
    const paths = (request.toolCall.locations ?? []).map((l) => l.path);
    const outside = paths.filter((p) => !inside(p, place, kind === "write"));
    allow = paths.length > 0 && outside.length === 0;
    reason =
      paths.length === 0
        ? `permissions.${kind} is worktree and the tool call names no location, so it cannot be shown to stay inside ${where}`
        : outside.length > 0
          ? `permissions.${kind} is worktree and ${outside.map((p) => JSON.stringify(p)).join(", ")} ${outside.length === 1 ? "is" : "are"} outside ${where}`
          : `permissions.${kind} is worktree and every location is inside ${where}`;
  }
  const wanted = allow ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
  let option: PermissionOptionLike | undefined;
  for (const k of wanted) option ??= request.options.find((o) => o.kind === k);
  return {
    allow: allow && option !== undefined,
    kind,
    reason: option === undefined ? `${reason}; the agent offered no ${allow ? "allow" : "reject"} option, so the request is cancelled` : reason,
    outcome: option !== undefined ? { outcome: "selected", optionId: option.optionId } : { outcome: "cancelled" },
  };
}
