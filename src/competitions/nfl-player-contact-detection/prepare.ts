import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Table } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { selectColumns, takeRows } from "../../prepare/frame.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const VIEWS = ["All29", "Endzone", "Sideline"];
// The per-play tables split alongside the labels, each written as train_<name> and test_<name>.
const SIDE_TABLES = ["baseline_helmets", "player_tracking", "video_metadata"];

/** The game_play of every row, which must be text as in Kaggle's files. */
function gamePlays(t: Table, file: string): (string | null)[] {
  const col = t.data.get("game_play");
  if (!col) throw new UserError(`${file}: no "game_play" column (columns: ${t.columns.join(", ")})`);
  if (col.kind !== "string") throw new UserError(`${file}: "game_play" should be text like 58168_003392, got a ${col.kind} column`);
  return col.values;
}

/** Distinct values in order of first appearance (pandas `Series.unique`). */
function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** Rows whose game_play is in `plays`, in file order (pandas `df[df.game_play.isin(plays)]`). */
function rowsIn(t: Table, plays: Set<string | null>, file: string): Table {
  const gp = gamePlays(t, file);
  const keep: number[] = [];
  gp.forEach((g, i) => {
    if (plays.has(g)) keep.push(i);
  });
  return takeRows(t, keep);
}

function copyVideos(plays: (string | null)[], from: string, to: string): void {
  for (const view of VIEWS) {
    for (const play of plays) {
      const name = `${play ?? "nan"}_${view}.mp4`;
      const src = path.join(from, name);
      if (!fs.existsSync(src)) throw new UserError(`${src} is missing: expected the ${view} video of play ${play}`);
      fs.copyFileSync(src, path.join(to, name));
    }
  }
}

/**
 * Upstream's split of Kaggle's training plays: 10% of the distinct game_plays in
 * train_labels.csv (random_state 0) become the test set, so no play straddles the split. The
 * labels, helmet boxes, tracking and video metadata are split by play, the three videos of
 * each play copied to public/train or public/test, and the sample submission predicts no contact.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  fs.mkdirSync(path.join(ctx.public, "train"), { recursive: true });
  fs.mkdirSync(path.join(ctx.public, "test"), { recursive: true });
  const labelsFile = path.join(ctx.raw, "train_labels.csv");
  const labels = readCsv(labelsFile, { file: labelsFile });
  const plays = unique(gamePlays(labels, labelsFile));
  let split;
  try {
    split = trainTestSplitIndices(plays.length, { testSize: 0.1, randomState: 0 });
  } catch (e) {
    throw new UserError(`${labelsFile}: ${plays.length} game plays cannot be split 90/10 (${(e as Error).message})`);
  }
  const trainPlays = new Set(split.train.map((i) => plays[i]));
  const testPlays = new Set(split.test.map((i) => plays[i]));

  const newTrain = rowsIn(labels, trainPlays, labelsFile);
  const newTest = rowsIn(labels, testPlays, labelsFile);
  writeCsv(path.join(ctx.public, "train_labels.csv"), newTrain);
  writeCsv(path.join(ctx.private, "test.csv"), newTest);

  for (const name of SIDE_TABLES) {
    const file = path.join(ctx.raw, `train_${name}.csv`);
    const t = readCsv(file, { file });
    writeCsv(path.join(ctx.public, `train_${name}.csv`), rowsIn(t, trainPlays, file));
    writeCsv(path.join(ctx.public, `test_${name}.csv`), rowsIn(t, testPlays, file));
  }

  const videos = path.join(ctx.raw, "train");
  copyVideos(unique(gamePlays(newTrain, labelsFile)), videos, path.join(ctx.public, "train"));
  copyVideos(unique(gamePlays(newTest, labelsFile)), videos, path.join(ctx.public, "test"));

  const ids = selectColumns(newTest, ["contact_id"], labelsFile);
  const sample = makeTable([["contact_id", ids.data.get("contact_id")!], ["contact", { kind: "int", values: new Float64Array(newTest.rowCount) }]]);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
}
