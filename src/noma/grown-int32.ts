/** `a` copied into an int32 array twice its length (at least `min`, and 16, long): growable typed storage. */
export function grownInt32(a: Int32Array, min = 0): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(a.length * 2, min, 16));
  b.set(a);
  return b;
}
