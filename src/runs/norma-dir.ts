/**
 * Create `.norma/` on first use, with its own `.gitignore` keeping the
 * database, locks and run records out of git (only `config.json` is meant to
 * be committed). An existing `.gitignore` there is never touched.
 */
import { existsSync, mkdirSync } from "node:fs";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import { abs, NORMA_DIR, RUNS_DIR } from "../layout/norma-layout.js";

export const NORMA_GITIGNORE = `# noma-reconcile run loop (norma layout): the database, locks and run records stay local.
*
!.gitignore
!config.json
`;

export function ensureNormaDir(root: string): void {
  mkdirSync(abs(root, RUNS_DIR), { recursive: true });
  mkdirSync(abs(root, `${NORMA_DIR}/locks`), { recursive: true });
  const ignore = abs(root, `${NORMA_DIR}/.gitignore`);
  if (!existsSync(ignore)) writeFileAtomic(ignore, NORMA_GITIGNORE);
}
