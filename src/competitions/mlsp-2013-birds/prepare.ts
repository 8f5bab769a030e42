import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { cellAt, makeTable, type Column } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { writeFileAtomic } from "../../core/atomic.js";
import { extractArchive } from "../../io/extract.js";
import { pyStrAt } from "../../pycompat/pystr.js";
import { column, takeRows, withColumn } from "../../prepare/frame.js";
import { sampleIndices } from "../../rng/pandas-sample.js";
import { readLines, requireInt } from "./pytext.js";

const SPECIES = 19;
// Upstream writes this header on all three filtered supplemental files, whatever their own header was.
const SUPPLEMENTAL_HEADER = "rec_id,[histogram of segment features]";

/** An integer column of these values. */
function intColumn(values: ArrayLike<number>): Column {
  return { kind: "int", values: Float64Array.from(values) };
}

/** A numeric id cell as a number, refusing text and gaps (upstream keys dicts on these ids). */
function idAt(col: Column, i: number, file: string, name: string): number {
  const v = cellAt(col, i);
  if (typeof v !== "number") throw new UserError(`${file}, row ${i + 2}: ${name} should be a number, got ${v === null ? "nothing" : JSON.stringify(String(v))}`);
  return v;
}

interface Split {
  /** Old rec_id → new rec_id (the row's position among fold-0 recordings). */
  newId: Map<number, number>;
  /** New rec_ids drawn for the test set, ascending. */
  testIds: Set<number>;
  testOrder: number[];
}

/**
 * CVfolds_2.txt: the fold-0 recordings renumbered 0..n-1, a fifth of them (DataFrame.sample,
 * random_state 0) moved to fold 1 to become the new test set.
 */
function splitFolds(file: string, dest: string): Split {
  const folds = readCsv(file, { file });
  const recCol = column(folds, "rec_id", file);
  const foldCol = column(folds, "fold", file);
  if (foldCol.kind !== "int" && foldCol.kind !== "float") throw new UserError(`${file}: the fold column should hold numbers`);
  const keep: number[] = [];
  for (let i = 0; i < folds.rowCount; i++) if (foldCol.values[i] === 0) keep.push(i);
  const train = takeRows(folds, keep);
  const n = train.rowCount;
  const newFold = new Float64Array(n);
  const testOrder = sampleIndices(n, { frac: 0.2, randomState: 0 }).sort((a, b) => a - b);
  for (const i of testOrder) newFold[i] = 1;
  const newId = new Map<number, number>();
  // A repeated old id keeps its last position, as a dict comprehension does.
  keep.forEach((row, pos) => newId.set(idAt(recCol, row, file, "rec_id"), pos));
  const renumbered = withColumn(
    withColumn(train, "rec_id", intColumn(Array.from({ length: n }, (_, i) => i))),
    "fold",
    { kind: foldCol.kind, values: newFold },
  );
  writeCsv(dest, renumbered);
  return { newId, testIds: new Set(testOrder), testOrder };
}

/** rec_id2filename.txt restricted to the kept recordings, renumbered; returns the file stems in file order. */
function renumberFilenames(file: string, dest: string, split: Split): string[] {
  const table = readCsv(file, { file });
  const rec = column(table, "rec_id", file);
  const names = column(table, "filename", file);
  const rows: number[] = [];
  const ids: number[] = [];
  for (let i = 0; i < table.rowCount; i++) {
    const v = cellAt(rec, i);
    const mapped = typeof v === "number" ? split.newId.get(v) : undefined;
    if (mapped === undefined) continue;
    rows.push(i);
    ids.push(mapped);
  }
  writeCsv(dest, withColumn(takeRows(table, rows), "rec_id", intColumn(ids)));
  return rows.map((i) => pyStrAt(names, i));
}

/** Each data line of a "rec_id,rest" text file as (old id, text after the first comma or null, line number), header skipped. */
function idLines(file: string): { id: number; rest: string | null; line: number }[] {
  return readLines(file)
    .slice(1)
    .map((line, k) => {
      const comma = line.indexOf(",");
      const head = comma < 0 ? line : line.slice(0, comma);
      return { id: requireInt(head, file, k + 2, "rec_id"), rest: comma < 0 ? null : line.slice(comma + 1), line: k + 2 };
    });
}

/** The label lines of the kept recordings: public with "?" for test ones, and one answer row per (test recording, species). */
function splitLabels(file: string, publicDest: string, privateDest: string, split: Split): void {
  const kept = idLines(file).flatMap(({ id, rest, line }) => {
    const mapped = split.newId.get(id);
    return mapped === undefined ? [] : [{ id: mapped, labels: rest ?? "", line }];
  });
  let text = "rec_id,[labels]\n";
  for (const { id, labels } of kept) {
    const shown = split.testIds.has(id) ? "?" : labels;
    text += shown === "" ? `${id}\n` : `${id},${shown}\n`;
  }
  writeFileAtomic(publicDest, text);
  const answerIds: number[] = [];
  const answerHits: number[] = [];
  for (const { id, labels, line } of kept) {
    if (!split.testIds.has(id)) continue;
    const species = new Set(
      labels
        .split(",")
        .filter((s) => s !== "")
        .map((s) => requireInt(s, file, line, "a species id of a held-out training recording")),
    );
    for (let s = 0; s < SPECIES; s++) {
      answerIds.push(id * 100 + s);
      answerHits.push(species.has(s) ? 1 : 0);
    }
  }
  writeCsv(privateDest, makeTable([["Id", intColumn(answerIds)], ["Probability", intColumn(answerHits)]]));
}

/** A supplemental text file keyed by rec_id in its first field, kept recordings only, renumbered. */
function filterById(src: string, dest: string, split: Split): void {
  let text = `${SUPPLEMENTAL_HEADER}\n`;
  for (const { id, rest } of idLines(src)) {
    const mapped = split.newId.get(id);
    if (mapped !== undefined) text += `${mapped},${rest ?? ""}\n`;
  }
  writeFileAtomic(dest, text);
}

/** Copy one file, naming it in the error if it is missing. */
function copy(src: string, dest: string): void {
  if (!fs.existsSync(src)) throw new UserError(`${src} is missing`);
  fs.copyFileSync(src, dest);
}

/** The audio and the per-recording images of the kept recordings, then the two shared images. */
function copyMedia(data: string, pub: string, stems: string[]): void {
  const wavs = path.join(pub, "essential_data", "src_wavs");
  fs.mkdirSync(wavs, { recursive: true });
  for (const s of stems) copy(path.join(data, "essential_data", "src_wavs", `${s}.wav`), path.join(wavs, `${s}.wav`));
  const folders = ["filtered_spectrograms", "segmentation_examples", "spectrograms", "supervised_segmentation"];
  for (const f of folders) fs.mkdirSync(path.join(pub, "supplemental_data", f), { recursive: true });
  for (const s of stems) {
    for (const f of folders) {
      const src = path.join(data, "supplemental_data", f, `${s}.bmp`);
      // Only some recordings have a segmentation example; the other folders cover them all.
      if (f === "segmentation_examples" && !fs.existsSync(src)) continue;
      copy(src, path.join(pub, "supplemental_data", f, `${s}.bmp`));
    }
  }
  for (const f of ["segment_clusters.bmp", "segment_mosaic.bmp"]) {
    copy(path.join(data, "supplemental_data", f), path.join(pub, "supplemental_data", f));
  }
}

/**
 * Upstream's split: only Kaggle's training recordings (fold 0) are kept, renumbered from 0, and
 * a fifth of them become the test set; every per-recording file is filtered and renumbered to
 * match, the answers have one row per (recording, species) with Id = rec_id * 100 + species.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await extractArchive(path.join(ctx.raw, "mlsp_contest_dataset.zip"), ctx.raw);
  const data = path.join(ctx.raw, "mlsp_contest_dataset");
  const essential = path.join(data, "essential_data");
  const pubEssential = path.join(ctx.public, "essential_data");
  const pubSupplemental = path.join(ctx.public, "supplemental_data");
  fs.mkdirSync(pubEssential, { recursive: true });
  fs.mkdirSync(pubSupplemental, { recursive: true });

  const split = splitFolds(path.join(essential, "CVfolds_2.txt"), path.join(pubEssential, "CVfolds_2.txt"));
  const stems = renumberFilenames(path.join(essential, "rec_id2filename.txt"), path.join(pubEssential, "rec_id2filename.txt"), split);
  splitLabels(
    path.join(essential, "rec_labels_test_hidden.txt"),
    path.join(pubEssential, "rec_labels_test_hidden.txt"),
    path.join(ctx.private, "answers.csv"),
    split,
  );
  const sampleIds = split.testOrder.flatMap((id) => Array.from({ length: SPECIES }, (_, s) => id * 100 + s));
  writeCsv(
    path.join(ctx.public, "sample_submission.csv"),
    makeTable([["Id", intColumn(sampleIds)], ["Probability", intColumn(new Float64Array(sampleIds.length))]]),
  );
  copy(path.join(essential, "species_list.txt"), path.join(pubEssential, "species_list.txt"));
  copyMedia(data, ctx.public, stems);
  for (const f of ["histogram_of_segments.txt", "segment_features.txt", "segment_rectangles.txt"]) {
    filterById(path.join(data, "supplemental_data", f), path.join(pubSupplemental, f), split);
  }
}
