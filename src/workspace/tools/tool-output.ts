/**
 * What a workspace tool hands back to the dispatcher: the NOA response body and what
 * goes into the evidence ledger for it.
 */
export interface ToolOutput<B extends object = Record<string, unknown>> {
  body: B;
  /** The ledger entry's path (repo-relative, "" when the request names none). */
  ledgerPath: string;
  details: Record<string, unknown>;
}
