/**
 * A unified diff as Python's difflib.unified_diff prints it with empty file names and 3 lines of
 * context. The alignment follows difflib's SequenceMatcher (longest matching blocks, "popular"
 * lines ignored as anchors in files of 200+ lines), so hunks come out as upstream's observations show
 * them. Lines keep their own endings, so a last line without one runs into the next printed line.
 */
export function unifiedDiff(a: string[], b: string[], context = 3): string {
  const out: string[] = [];
  for (const group of groupedOpcodes(opcodes(a, b), context)) {
    if (out.length === 0) out.push("--- \n", "+++ \n");
    const first = group[0]!;
    const last = group[group.length - 1]!;
    out.push(`@@ -${range(first.i1, last.i2)} +${range(first.j1, last.j2)} @@\n`);
    for (const op of group) {
      if (op.tag === "equal") {
        for (let i = op.i1; i < op.i2; i++) out.push(" " + a[i]);
        continue;
      }
      for (let i = op.i1; i < op.i2; i++) out.push("-" + a[i]);
      for (let j = op.j1; j < op.j2; j++) out.push("+" + b[j]);
    }
  }
  return out.join("");
}

/** Split like Python's str.splitlines(keepends=True) for "\n" line endings. */
export function splitKeepEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

interface Op {
  tag: "equal" | "replace" | "delete" | "insert";
  i1: number;
  i2: number;
  j1: number;
  j2: number;
}

function range(start: number, stop: number): string {
  const length = stop - start;
  if (length === 1) return String(start + 1);
  return `${length === 0 ? start : start + 1},${length}`;
}

/** Where each line of `b` occurs, less lines so frequent that difflib's autojunk drops them. */
function indexB(b: string[]): Map<string, number[]> {
  const b2j = new Map<string, number[]>();
  b.forEach((line, j) => {
    const list = b2j.get(line);
    if (list) list.push(j);
    else b2j.set(line, [j]);
  });
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [line, list] of b2j) if (list.length > ntest) b2j.delete(line);
  }
  return b2j;
}

function longestMatch(a: string[], b: string[], b2j: Map<string, number[]>, alo: number, ahi: number, blo: number, bhi: number): [number, number, number] {
  let [besti, bestj, bestsize] = [alo, blo, 0];
  let j2len = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>();
    for (const j of b2j.get(a[i]!) ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (j2len.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k];
    }
    j2len = next;
  }
  // Dropped popular lines may still extend a match on either side.
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) [besti, bestj, bestsize] = [besti - 1, bestj - 1, bestsize + 1];
  while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
  return [besti, bestj, bestsize];
}

function matchingBlocks(a: string[], b: string[]): [number, number, number][] {
  const b2j = indexB(b);
  const blocks: [number, number, number][] = [];
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = longestMatch(a, b, b2j, alo, ahi, blo, bhi);
    if (!k) continue;
    blocks.push([i, j, k]);
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
  const merged: [number, number, number][] = [];
  let [i1, j1, k1] = [0, 0, 0];
  for (const [i2, j2, k2] of blocks) {
    if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
    else {
      if (k1) merged.push([i1, j1, k1]);
      [i1, j1, k1] = [i2, j2, k2];
    }
  }
  if (k1) merged.push([i1, j1, k1]);
  merged.push([a.length, b.length, 0]);
  return merged;
}

function opcodes(a: string[], b: string[]): Op[] {
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  for (const [ai, bj, size] of matchingBlocks(a, b)) {
    const tag = i < ai && j < bj ? "replace" : i < ai ? "delete" : j < bj ? "insert" : null;
    if (tag) ops.push({ tag, i1: i, i2: ai, j1: j, j2: bj });
    [i, j] = [ai + size, bj + size];
    if (size) ops.push({ tag: "equal", i1: ai, i2: i, j1: bj, j2: j });
  }
  return ops;
}

/** Changes with up to `n` lines of context, split where more than 2n unchanged lines lie between them. */
function groupedOpcodes(source: Op[], n: number): Op[][] {
  const codes = source.length ? source.map((o) => ({ ...o })) : [{ tag: "equal" as const, i1: 0, i2: 1, j1: 0, j2: 1 }];
  const head = codes[0]!;
  if (head.tag === "equal") [head.i1, head.j1] = [Math.max(head.i1, head.i2 - n), Math.max(head.j1, head.j2 - n)];
  const tail = codes[codes.length - 1]!;
  if (tail.tag === "equal") [tail.i2, tail.j2] = [Math.min(tail.i2, tail.i1 + n), Math.min(tail.j2, tail.j1 + n)];
  const groups: Op[][] = [];
  let group: Op[] = [];
  for (const op of codes) {
    let { i1, j1 } = op;
    if (op.tag === "equal" && op.i2 - op.i1 > 2 * n) {
      group.push({ ...op, i2: Math.min(op.i2, op.i1 + n), j2: Math.min(op.j2, op.j1 + n) });
      groups.push(group);
      group = [];
      [i1, j1] = [Math.max(op.i1, op.i2 - n), Math.max(op.j1, op.j2 - n)];
    }
    group.push({ ...op, i1, j1 });
  }
  if (group.length && !(group.length === 1 && group[0]!.tag === "equal")) groups.push(group);
  return groups;
}
