import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable, type Column } from "../../core/table.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { extractArchive } from "../../io/extract.js";
import { takeRows } from "../../prepare/frame.js";
import { comparePyStrings } from "../../prepare/groupby.js";
import { PythonRandom } from "../../rng/python-random.js";

const TEST_BATCH = "training4.tar.gz";
/** Copied under their own names: the other training batches, the validation batches and the extras. */
const COPIED = [
  "training1.tar.gz",
  "training2.tar.gz",
  "training3.tar.gz",
  "validation1.tar.gz",
  "validation2.tar.gz",
  "validation3.tar.gz",
  "devel01-40.7z",
  "valid_all_files_combined.7z",
  "sample_code_mmrgc.zip",
];
/** Gestures are numbered 1 to 20; a random prediction is an ordering of all of them. */
const GESTURES = Array.from({ length: 20 }, (_, i) => i + 1);

/**
 * Upstream's split: the recordings of training4 become the test set. Their Ids (the last four
 * characters of each SampleNNNNN.zip's name) move from training.csv to the answers; public/ gets
 * the remaining labels, the test Ids, random predictions (Python's random, seed 0) and the
 * archives, training4.tar.gz renamed test.tar.gz.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  for (const name of [TEST_BATCH, ...COPIED]) {
    if (!fs.existsSync(path.join(ctx.raw, name))) throw new UserError(`${path.join(ctx.raw, name)} is missing: upstream copies it into public/`);
  }
  const testIds = await recordingIds(path.join(ctx.raw, TEST_BATCH), ctx.raw);
  const file = path.join(ctx.raw, "training.csv");
  // Ids are zero-padded ("0046"), so upstream reads them (and the sequences) as text.
  const labels = readCsv(file, { file, text: ["Id", "Sequence"] });
  const ids = labels.data.get("Id");
  if (!ids) throw new UserError(`${file}: no column "Id" (columns: ${labels.columns.join(", ")})`);
  const held = new Set(testIds);
  const keep: number[] = [];
  const out: number[] = [];
  for (let i = 0; i < labels.rowCount; i++) {
    const id = ids.values[i];
    (typeof id === "string" && held.has(id) ? out : keep).push(i);
  }
  writeCsv(path.join(ctx.public, "training.csv"), takeRows(labels, keep));
  writeCsv(path.join(ctx.private, "test.csv"), takeRows(labels, out));
  const idColumn: Column = { kind: "string", values: testIds };
  writeCsv(path.join(ctx.public, "test.csv"), makeTable([["Id", idColumn]]));
  writeCsv(path.join(ctx.public, "randomPredictions.csv"), makeTable([["Id", idColumn], ["Sequence", randomSequences(testIds.length)]]));
  fs.copyFileSync(path.join(ctx.raw, TEST_BATCH), path.join(ctx.public, "test.tar.gz"));
  for (const name of COPIED) fs.copyFileSync(path.join(ctx.raw, name), path.join(ctx.public, name));
}

/**
 * The Ids of the recordings at the top level of a batch archive, sorted as Python sorts str:
 * the last four characters of each "*.zip" entry's name without its extension.
 */
async function recordingIds(archive: string, raw: string): Promise<string[]> {
  // Unpacked into a scratch folder (upstream uses raw/training4) that goes once the names are read.
  const dest = fs.mkdtempSync(path.join(raw, ".training4-"));
  try {
    await extractArchive(archive, dest);
    const ids = fs
      .readdirSync(dest)
      .filter((name) => name.endsWith(".zip"))
      .map((name) => Array.from(pyStem(name)).slice(-4).join(""));
    return ids.sort(comparePyStrings);
  } finally {
    fs.rmSync(dest, { recursive: true, force: true });
  }
}

/** pathlib's `Path(name).stem`: the name without its last suffix, where a leading dot starts no suffix. */
function pyStem(name: string): string {
  const i = name.lastIndexOf(".");
  return i > 0 && i < name.length - 1 ? name.slice(0, i) : name;
}

/** One shuffled "1 ... 20" per test Id, drawn like upstream's `random.sample(range(1, 21), 20)` after `random.seed(0)`. */
function randomSequences(n: number): Column {
  const rng = new PythonRandom(0);
  return { kind: "string", values: Array.from({ length: n }, () => rng.sample(GESTURES, GESTURES.length).join(" ")) };
}
