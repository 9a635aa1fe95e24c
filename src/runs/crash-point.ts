/**
 * Fault injection for the crash tests: `NOMA_RECONCILE_TEST_CRASH_AT=<point>`
 * (or `<point>#<n>`, the n-th time the point is reached) kills this process
 * with SIGKILL at that point of a run — no cleanup, no `finally`, exactly what
 * a power cut or `kill -9` leaves behind. Unset, it costs one env lookup.
 */
const seen = new Map<string, number>();

export function crashPoint(point: string): void {
  const want = process.env["NOMA_RECONCILE_TEST_CRASH_AT"];
  if (want === undefined || want === "" || !want.startsWith(point)) return;
  const [name, nth] = want.split("#");
  if (name !== point) return;
  const n = (seen.get(point) ?? 0) + 1;
  seen.set(point, n);
  if (nth === undefined || Number(nth) === n) process.kill(process.pid, "SIGKILL");
}
