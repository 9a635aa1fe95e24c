/**
 * `.norma/locks/agent.json`: the process group of the agent (or test command)
 * the run is waiting for, `{pid, host, start}`. Agents run in their own
 * process group, so when the run process itself is killed (kill -9, power
 * cut) they live on as orphans and could keep writing into the step's temp
 * directory. Recovery, before it deletes temp directories, ends such an
 * orphan's group — only when it is provably the same process: same host, and
 * the same start time where the OS shows one (Linux's /proc), so a reused pid
 * is never touched.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { processStart } from "../../fsx/with-file-lock.js";
import { writeFileAtomic } from "../../fsx/write-file-atomic.js";
import { abs } from "../../layout/norma-layout.js";

export const AGENT_PID_FILE = ".norma/locks/agent.json";

interface AgentPid {
  pid: number;
  host: string;
  start: string | null;
}

export function recordAgentPid(root: string, pid: number): void {
  const v: AgentPid = { pid, host: hostname(), start: processStart(pid) };
  try {
    writeFileAtomic(abs(root, AGENT_PID_FILE), `${JSON.stringify(v)}\n`);
  } catch {
    /* best effort: only recovery's orphan cleanup depends on it */
  }
}

/**
 * recordAgentPid off the event loop (temp file, fsync, rename, like writeFileAtomic): the
 * agent runs while its record is made durable, instead of the step waiting for the disk.
 * Never rejects; await it before clearing the record.
 */
export async function recordAgentPidAsync(root: string, pid: number): Promise<void> {
  const v: AgentPid = { pid, host: hostname(), start: processStart(pid) };
  const target = abs(root, AGENT_PID_FILE);
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    const h = await open(tmp, "wx", 0o644);
    try {
      await h.writeFile(`${JSON.stringify(v)}\n`);
      await h.sync();
    } finally {
      await h.close();
    }
    await rename(tmp, target);
  } catch {
    await unlink(tmp).catch(() => undefined); // best effort: only recovery's orphan cleanup depends on it
  }
}

export function clearAgentPid(root: string, pid: number): void {
  try {
    const v = JSON.parse(readFileSync(abs(root, AGENT_PID_FILE), "utf8")) as AgentPid;
    if (v.pid === pid) rmSync(abs(root, AGENT_PID_FILE), { force: true });
  } catch {
    /* none */
  }
}

/** End the process group of an agent a dead run left behind; returns its pid when one was signalled. */
export function killOrphanAgent(root: string): number | null {
  let v: AgentPid;
  try {
    v = JSON.parse(readFileSync(abs(root, AGENT_PID_FILE), "utf8")) as AgentPid;
  } catch {
    return null;
  }
  rmSync(abs(root, AGENT_PID_FILE), { force: true });
  if (typeof v.pid !== "number" || v.host !== hostname()) return null;
  const now = processStart(v.pid);
  if (now === null || v.start === null || now !== v.start) return null;
  try {
    process.kill(-v.pid, "SIGKILL");
    return v.pid;
  } catch {
    return null;
  }
}
