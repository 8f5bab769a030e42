// Upstream's 3-D volumes: rows sorted by id, the masks of one slice id OR-ed together, and the
// slices of each "<case>_<day>" stacked in that order.

import { compareStrings } from "../../grading/columns.js";
import { type Runs, union } from "./rle-runs.js";

/** One decoded row: its mask and the image size it was decoded with. */
export interface Mask {
  runs: Runs;
  height: number;
  width: number;
}

/** A case-day's stacked slices, all of one image size. */
export interface Volume {
  caseDay: string;
  slices: Runs[];
  height: number;
  width: number;
  /** Voxels set. */
  count: number;
}

/** Thrown where numpy cannot combine masks of different sizes; says which id and sizes. */
export class RaggedMasksError extends Error {
  override name = "RaggedMasksError";
}

function sizeText(m: { height: number; width: number }): string {
  return `${m.height}×${m.width}`;
}

/**
 * Volumes in the order upstream builds them (case-days by their first slice id in sorted order);
 * masks[i] is the mask of row ids[i].
 */
export function groupVolumes(masks: Mask[], ids: string[]): Volume[] {
  // Python's sorted() is stable, so rows of one slice keep file order (which cannot change an OR).
  const order = Array.from(ids.keys()).sort((a, b) => compareStrings(ids[a], ids[b]));
  const volumes = new Map<string, Volume>();
  let k = 0;
  while (k < order.length) {
    const id = ids[order[k]];
    const group: Mask[] = [];
    for (; k < order.length && ids[order[k]] === id; k++) group.push(masks[order[k]]);
    const first = group[0];
    const odd = group.find((m) => m.height !== first.height || m.width !== first.width);
    if (odd) throw new RaggedMasksError(`the rows of slice ${JSON.stringify(id)} have masks of different sizes (${sizeText(first)} and ${sizeText(odd)})`);
    const cut = id.indexOf("_slice_");
    const caseDay = cut < 0 ? id : id.slice(0, cut);
    const slice = union(group.map((m) => m.runs));
    const volume = volumes.get(caseDay);
    if (!volume) {
      volumes.set(caseDay, { caseDay, slices: [slice], height: first.height, width: first.width, count: slice.count });
      continue;
    }
    if (volume.height !== first.height || volume.width !== first.width) {
      throw new RaggedMasksError(
        `the slices of ${JSON.stringify(caseDay)} have different sizes (${sizeText(volume)} and ${sizeText(first)} at ${JSON.stringify(id)})`,
      );
    }
    volume.slices.push(slice);
    volume.count += slice.count;
  }
  return [...volumes.values()];
}

/** A volume's voxels as flat [slice, row, column] triples. */
export function voxels(volume: Volume): Int32Array {
  const out = new Int32Array(3 * volume.count);
  let n = 0;
  const h = volume.height;
  volume.slices.forEach((slice, z) => {
    const runs = slice.runs;
    for (let i = 0; i < runs.length; i += 2) {
      for (let p = runs[i]; p < runs[i + 1]; p++) {
        out[n++] = z;
        out[n++] = p % h;
        out[n++] = (p - (p % h)) / h;
      }
    }
  });
  return out;
}
