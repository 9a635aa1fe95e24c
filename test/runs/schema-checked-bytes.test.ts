/**
 * The fast path of `.norma/norma.db` transactions (src/runs/schema-checked-bytes.ts): a transaction
 * that re-reads the very bytes this process last wrote skips the schema check. Equivalence with the
 * slow path (every open checked): the same transactions give the same state and the same errors; the
 * bytes written are the ones remembered; and a file another writer changed is checked in full (a
 * trigger added behind our back is refused, as on a first open).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import initSqlJs from "sql.js";
import { describe, expect, it } from "vitest";
import { NormaDbError, normaTransaction, readNormaState } from "../../src/runs/norma-db.js";
import { forgetSchemaChecked, schemaCheckedBefore } from "../../src/runs/schema-checked-bytes.js";
import { tempDir } from "../helpers/temp-repo.js";
import { applyNormaOp, type NormaOp, normaOpArb, plainNormaState, rid } from "./helpers/norma-ops.js";

const opArb = normaOpArb({ fail: false });
const apply = (root: string, op: NormaOp): Promise<string> => applyNormaOp(root, op);
const plain = plainNormaState;

describe("norma.db: the schema check skipped for bytes this process wrote", () => {
  it("gives the same answers and the same state as checking every open (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), async (ops) => {
        const fast = tempDir("nr-fast-");
        const slow = tempDir("nr-slow-");
        // Both files exist from the start (a transaction that fails writes nothing).
        expect(await apply(fast, { kind: "run", id: 0 })).toBe("ok");
        expect(await apply(slow, { kind: "run", id: 0 })).toBe("ok");
        for (const op of ops) {
          const a = await apply(fast, op);
          // The bytes on disk are the ones remembered: the next transaction takes the fast path.
          expect(schemaCheckedBefore(join(fast, ".norma/norma.db"), readFileSync(join(fast, ".norma/norma.db")))).toBe(true);
          // The other repository takes the slow path every time: nothing remembered for it.
          forgetSchemaChecked(join(slow, ".norma/norma.db"));
          const b = await apply(slow, op);
          // Remembered again only when this transaction wrote (a failed one leaves the forgotten file as it was).
          expect(schemaCheckedBefore(join(slow, ".norma/norma.db"), readFileSync(join(slow, ".norma/norma.db")))).toBe(b === "ok");
          forgetSchemaChecked(join(slow, ".norma/norma.db"));
          expect(a).toBe(b);
          expect(plain(await readNormaState(fast))).toEqual(plain(await readNormaState(slow)));
        }
      }),
      { numRuns: 25 },
    );
  });

  it("checks a file another writer changed after our transaction: a trigger added behind our back is refused", async () => {
    const root = tempDir("nr-trigger-");
    const file = join(root, ".norma/norma.db");
    expect(await apply(root, { kind: "run", id: 1 })).toBe("ok");
    const SQL = await initSqlJs();
    const db = new SQL.Database(readFileSync(file));
    db.run("CREATE TRIGGER t AFTER INSERT ON events BEGIN DELETE FROM events; END");
    writeFileSync(file, db.export());
    db.close();
    expect(schemaCheckedBefore(file, readFileSync(file))).toBe(false);
    const err = await normaTransaction(root, (tx) => tx.event(rid(1), "note", "x")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NormaDbError);
    expect((err as Error).message).toBe(
      '.norma/norma.db is not a run database norma or noma-reconcile writes (a trigger named "t"); move it aside to start a new one (the run records in .norma/runs stay)',
    );
  });
});
