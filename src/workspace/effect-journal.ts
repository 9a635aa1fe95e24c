/**
 * Effects on the evidence ledger before they happen. A request that changes the work
 * tree (or runs a command) writes an **intent** line — what it is about to do, to which
 * path, the hash of the content it will write — and waits for it to be durable (the
 * ledger's fsync) before its first change on disk; after the effect, the dispatcher
 * writes the **outcome** line, which names the intent by its `seq`, and answers only once
 * that line is durable too. kill -9 at any moment therefore leaves no change on disk
 * without its intent line; an intent without an outcome is an interrupted request
 * (`ledger verify` lists it as information, not as tampering).
 *
 * A request that is refused before any effect — or that only reads — stays one line, as
 * every line was before intents existed, so old ledgers read the same.
 */
import { appendLedger } from "./append-ledger.js";
import { portableDetails } from "./ledger-portable.js";
import type { Workspace } from "./workspace.js";

export class EffectJournal {
  /** seq of the intent line, once written. */
  intentSeq: number | null = null;
  /** The path the intent named. */
  intentPath = "";

  constructor(
    private readonly ws: Workspace,
    readonly action: string,
    /** Details every line of this request carries (`via`, a run step's `run`). */
    private readonly base: Record<string, unknown>,
  ) {}

  /**
   * Record, durably, the effect about to happen. Called once per request, after every
   * check that can refuse it and before the first change on disk.
   */
  async intent(path: string, details: Record<string, unknown>): Promise<void> {
    if (this.intentSeq !== null) throw new Error(`${this.action}: a second intent in one request`);
    // Like every line: the texts we compose (a command's executable) name no local path.
    const portable = portableDetails({ ...this.base, phase: "intent", ...details }, this.ws.root, this.ws.env["HOME"]);
    const [entry] = await appendLedger(this.ws, [{ action: this.action, path, details: portable }]);
    this.intentSeq = entry!.seq;
    this.intentPath = path;
  }
}

/** A journal for a tool called directly (not through runWorkspaceTool): its intents are recorded, `via: "library"`. */
export function libraryJournal(ws: Workspace, action: string): EffectJournal {
  return new EffectJournal(ws, action, { via: "library" });
}
