/**
 * Order two version strings the semver way (`1.2.10` > `1.2.9`; a
 * pre-release sorts before its release). Enough for "is the project's copy
 * older than this CLI"; not a full semver implementation.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA = "", preA] = splitVersion(a);
  const [coreB = "", preB] = splitVersion(b);
  const na = coreA.split(".").map((n) => Number.parseInt(n, 10) || 0);
  const nb = coreB.split(".").map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(na.length, nb.length, 3); i++) {
    const d = (na[i] ?? 0) - (nb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (preA === undefined || preB === undefined) return preA === preB ? 0 : preA === undefined ? 1 : -1;
  const pa = preA.split(".");
  const pb = preB.split(".");
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) {
      const d = Number(x) - Number(y);
      if (d !== 0) return Math.sign(d);
    } else if (xn !== yn) return xn ? -1 : 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function splitVersion(v: string): [string, string | undefined] {
  const clean = v.trim().replace(/^v/, "").split("+", 1)[0]!;
  const dash = clean.indexOf("-");
  return dash === -1 ? [clean, undefined] : [clean.slice(0, dash), clean.slice(dash + 1)];
}
