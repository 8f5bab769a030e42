import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import type { Column } from "../../core/table.js";
import { makeTable } from "../../core/table.js";
import { UserError } from "../../core/errors.js";
import { extractArchive } from "../../io/extract.js";
import { readCsv } from "../../io/csv-read.js";
import { writeCsv } from "../../io/csv-write.js";
import { dropColumns, trainTestSplitTable } from "../../prepare/frame.js";
import { CLASSES } from "./grade.js";

/** Kaggle's sample submission values, kept as upstream keeps them. */
const SAMPLE_PROBABILITIES: Record<string, number> = { EAP: 0.403493538995863, HPL: 0.287808366106543, MWS: 0.308698094897594 };

/**
 * Upstream's split: 10% of Kaggle's train.csv (random_state 0) becomes the test set; the answers
 * are one-hot rows (id, EAP, HPL, MWS) and the sample submission Kaggle's constant probabilities.
 */
export async function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  await extractArchive(path.join(ctx.raw, "train.zip"), ctx.raw);
  const file = path.join(ctx.raw, "train.csv");
  const old = readCsv(file, { file });
  const { train, test } = trainTestSplitTable(old, { testSize: 0.1, randomState: 0 });
  const ids = test.data.get("id");
  const authors = test.data.get("author");
  if (!ids || !authors || authors.kind !== "string") throw new UserError(`${file}: expected columns id, text, author`);
  const unknown = authors.values.find((a) => a === null || !CLASSES.includes(a));
  if (unknown !== undefined) throw new UserError(`${file}: author "${unknown}" is not one of ${CLASSES.join(", ")}`);
  const oneHot: [string, Column][] = [["id", ids]];
  for (const c of CLASSES) {
    const values = new Float64Array(test.rowCount);
    authors.values.forEach((a, i) => (values[i] = a === c ? 1 : 0));
    oneHot.push([c, { kind: "int", values }]);
  }
  const sample: [string, Column][] = [
    ["id", ids],
    ...CLASSES.map((c): [string, Column] => [c, { kind: "float", values: new Float64Array(test.rowCount).fill(SAMPLE_PROBABILITIES[c]) }]),
  ];
  writeCsv(path.join(ctx.public, "train.csv"), train);
  writeCsv(path.join(ctx.public, "test.csv"), dropColumns(test, ["author"], file));
  writeCsv(path.join(ctx.public, "sample_submission.csv"), makeTable(sample));
  writeCsv(path.join(ctx.private, "test.csv"), makeTable(oneHot));
}
