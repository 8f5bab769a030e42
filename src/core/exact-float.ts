/** Veltkamp's splitter 2^27 + 1: splits a double into two halves whose products are exact. */
const SPLIT = 134217729;

/**
 * The rounding error of p = fl(a*b): a*b = p + productError(a, b, p) exactly (Dekker's
 * TwoProduct), for operands far from overflow and underflow. Plain arithmetic, no FMA needed.
 */
export function productError(a: number, b: number, p: number): number {
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return ah * bh - p + ah * bl + al * bh + al * bl;
}
