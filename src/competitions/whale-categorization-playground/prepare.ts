import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, type Column, type Table } from "../../core/table.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { copyListedFiles } from "../../prepare/copy-listed.js";
import { takeRows, withColumn } from "../../prepare/frame.js";
import { defaultRng, type Generator } from "../../rng/generator.js";
import { sampleIndices } from "../../rng/pandas-sample.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const TEST_SIZE = 0.1;
const NEW_WHALE = "new_whale";
const GUESS = "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46";

type Side = "train" | "test" | "undecided";

/** Row positions of each whale id, ids in order of first appearance (pandas `unique` then `==`). */
function groupsById(ids: Column, file: string): number[][] {
  const groups = new Map<string, number[]>();
  for (let i = 0; i < ids.values.length; i++) {
    const v = cellAt(ids, i);
    // A missing id matches no row under ==, which upstream cannot split.
    if (v === null) throw new UserError(`${file}: row ${i + 1} has no Id (every image needs a whale id or new_whale)`);
    const key = String(v);
    const rows = groups.get(key);
    if (rows) rows.push(i);
    else groups.set(key, [i]);
  }
  return [...groups.values()];
}

/**
 * Each id with two or more images gets one image in train and one in test, picked as
 * `DataFrame.sample(2, random_state=0)` picks them; a lone image goes to test with
 * probability 0.1, drawn from one `default_rng(0)` shared across ids in order.
 */
function seedSides(groups: number[][], rows: number): Side[] {
  const side = new Array<Side>(rows).fill("undecided");
  const rng: Generator = defaultRng(0);
  // sample(2) with a fresh seed depends only on the group size, so each size is drawn once.
  const picks = new Map<number, number[]>();
  for (const g of groups) {
    if (g.length >= 2) {
      let pick = picks.get(g.length);
      if (!pick) picks.set(g.length, (pick = sampleIndices(g.length, { n: 2, randomState: 0 })));
      side[g[pick[0]]] = "train";
      side[g[pick[1]]] = "test";
    } else {
      side[g[0]] = rng.choice(["train", "test"] as const, undefined, false, [1 - TEST_SIZE, TEST_SIZE]);
    }
  }
  return side;
}

/** The undecided rows split 90/10 as sklearn's train_test_split (random_state 0) splits them. */
function splitRemaining(side: Side[], file: string): void {
  const remaining = side.flatMap((s, i) => (s === "undecided" ? [i] : []));
  if (remaining.length < 2) throw new UserError(`${file}: too few images left to split after seeding each whale id (${remaining.length})`);
  const split = trainTestSplitIndices(remaining.length, { testSize: TEST_SIZE, randomState: 0 });
  for (const i of split.train) side[remaining[i]] = "train";
  for (const i of split.test) side[remaining[i]] = "test";
}

/** Test ids never seen in train become new_whale, as the competition scores unseen whales. */
function relabelUnseen(answers: Table, train: Table): Table {
  const trainCol = train.data.get("Id")!;
  const seen = new Set<string>();
  for (let i = 0; i < train.rowCount; i++) seen.add(String(cellAt(trainCol, i)));
  const col = answers.data.get("Id")!;
  let changed = false;
  const values = Array.from({ length: answers.rowCount }, (_, i) => {
    if (seen.has(String(cellAt(col, i)))) return pyStrAt(col, i);
    changed = true;
    return NEW_WHALE;
  });
  // Unchanged columns keep their dtype; a relabelled one holds text, printed as pandas prints its cells.
  return changed ? withColumn(answers, "Id", { kind: "string", values }) : answers;
}

/**
 * Upstream's split: every whale id seen at least twice lands on both sides, lone images go to
 * test one time in ten, and the rest is split 90/10. Test ids absent from train become
 * new_whale; the sample submission guesses the same five ids for every image.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  for (const c of ["Image", "Id"]) {
    if (!old.data.has(c)) throw new UserError(`${file}: no "${c}" column (columns: ${old.columns.join(", ")})`);
  }
  const side = seedSides(groupsById(old.data.get("Id")!, file), old.rowCount);
  splitRemaining(side, file);
  const rowsOn = (s: Side) => side.flatMap((v, i) => (v === s ? [i] : []));
  const train = takeRows(old, rowsOn("train"));
  const answers = relabelUnseen(takeRows(old, rowsOn("test")), train);
  const guesses: Column = { kind: "string", values: new Array<string | null>(answers.rowCount).fill(GUESS) };
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), withColumn(answers, "Id", guesses));
  for (const [table, folder] of [[answers, "test"], [train, "train"]] as const) {
    copyListedFiles(table, "Image", { from: path.join(ctx.raw, "train"), to: path.join(ctx.public, folder), listedIn: file });
  }
}
