/**
 * Upstream's gold submission for Kuzushiji: each "class x y w h" box of the answers becomes the
 * point "class x+1 y+1", one step inside the box so the metric counts it as a hit. The parsing
 * follows Python's str.split() and int(), which are looser than JavaScript's.
 */
import { UserError } from "../../core/errors.js";
import { pyInt } from "../../pycompat/pynum.js";
import { pySplit } from "../../pycompat/pystr.js";

/** "c x y w h c x y w h ..." to "c x+1 y+1 c x+1 y+1 ...", failing where upstream's steps fail. */
export function goldLabel(label: string | null, where: string): string {
  if (label === null) throw new UserError(`${where}: labels is missing; upstream cannot build a gold submission for a page without labels`);
  const parts = pySplit(label);
  if (parts.length % 5 !== 0) {
    throw new UserError(`${where}: labels has ${parts.length} fields, expected groups of five ("class x y width height")`);
  }
  const out: string[] = [];
  for (let k = 0; k < parts.length; k += 5) {
    const x = pyInt(parts[k + 1]);
    const y = pyInt(parts[k + 2]);
    if (x === null || y === null) {
      const bad = x === null ? parts[k + 1] : parts[k + 2];
      throw new UserError(`${where}: labels has coordinate ${JSON.stringify(bad)} in box ${k / 5 + 1}, expected an integer`);
    }
    out.push(`${parts[k]} ${x + 1n} ${y + 1n}`);
  }
  return out.join(" ");
}
