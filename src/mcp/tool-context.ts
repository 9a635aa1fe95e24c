/**
 * What a tool handler runs against: the repository root (the top level of the
 * git work tree the server was started in; outside a repository, the working
 * directory) and a log on stderr.
 */
import type { AgentStep } from "../runs/agent-step.js";
import { ToolFailure } from "./tool-result.js";

export interface ToolContext {
  root: string;
  inRepo: boolean;
  /** Write a line to the server's log (stderr). */
  log: (line: string) => void;
  /** The run step whose agent this server serves (`mcp --step`), if any. */
  agentStep?: AgentStep;
  /** `mcp --read-only`: only the tools that read are served. */
  readOnly?: boolean;
  /** The client's roots (MCP Roots) as absolute paths, when it gave some: the workspace is their intersection with the repository. */
  roots?: readonly string[];
  /** Where the run records are (`.norma/`): run_list and run_status read there; default `root`. */
  runsRoot?: string;
}

/** Reconciliation works on the files git knows: outside a repository it is an error. */
export function requireRepo(ctx: ToolContext): string {
  if (!ctx.inRepo) throw new ToolFailure(`not inside a git repository (${ctx.root}); start the server in the repository whose specs you reconcile`);
  return ctx.root;
}

/** Warnings of the reconciliation library go to the log. */
export function warningLog(ctx: ToolContext): { onWarning: (message: string) => void } {
  return { onWarning: (m) => ctx.log(`warning: ${m}`) };
}
