import fs from "node:fs";
import path from "node:path";
import type { UpstreamPrepareContext } from "../../core/competition.js";
import { UserError } from "../../core/errors.js";
import { makeTable } from "../../core/table.js";
import { writeCsv } from "../../io/csv-write.js";
import { comparePyStrings } from "../../prepare/groupby.js";
import { PythonRandom } from "../../rng/python-random.js";
import { trainTestSplitIndices } from "../../rng/sklearn-split.js";

const ALGORITHMS = ["JMiPOD", "JUNIWARD", "UERD"];
const TEST_SIZE = 5000;

// Path("Cover").glob("*.jpg") sorted: every name ending in .jpg (hidden ones too), by code point.
function coverNames(raw: string): string[] {
  const dir = path.join(raw, "Cover");
  if (!fs.existsSync(dir)) throw new UserError(`${dir} is missing: expected Kaggle's folder of cover images`);
  const names = fs.readdirSync(dir).filter((n) => n.endsWith(".jpg"));
  if (names.length <= TEST_SIZE) {
    throw new UserError(`${dir} holds ${names.length} .jpg images; upstream holds out ${TEST_SIZE}, so it needs more than that`);
  }
  return names.sort(comparePyStrings);
}

function copy(src: string, dst: string): void {
  if (!fs.existsSync(src)) throw new UserError(`${src} is missing (its cover image is in Cover/)`);
  fs.copyFileSync(src, dst);
}

/**
 * Upstream's split: 5000 of the sorted cover images (random_state 42) become the test set. Train
 * images keep all four versions under new 5-digit names; each test image, after Python's
 * random.seed(0) shuffle, is the cover (label 0) or one randomly chosen stego version (label 1).
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  const covers = coverNames(ctx.raw);
  const split = trainTestSplitIndices(covers.length, { testSize: TEST_SIZE, randomState: 42 });
  for (const sub of ["Cover", "Test", ...ALGORITHMS]) fs.mkdirSync(path.join(ctx.public, sub), { recursive: true });
  split.train.forEach((c, idx) => {
    const name = `${String(idx + 1).padStart(5, "0")}.jpg`;
    copy(path.join(ctx.raw, "Cover", covers[c]), path.join(ctx.public, "Cover", name));
    for (const alg of ALGORITHMS) copy(path.join(ctx.raw, alg, covers[c]), path.join(ctx.public, alg, name));
  });
  const rng = new PythonRandom(0);
  const test = rng.shuffle(split.test.map((c) => covers[c]));
  const ids: string[] = [];
  const labels = new Float64Array(test.length);
  test.forEach((cover, idx) => {
    const id = `${String(idx + 1).padStart(4, "0")}.jpg`;
    const negative = rng.choice([true, false]);
    const folder = negative ? "Cover" : rng.choice(ALGORITHMS);
    copy(path.join(ctx.raw, folder, cover), path.join(ctx.public, "Test", id));
    ids.push(id);
    labels[idx] = negative ? 0 : 1;
  });
  const answers = makeTable([
    ["Id", { kind: "string", values: ids }],
    ["Label", { kind: "int", values: labels }],
  ]);
  writeCsv(path.join(ctx.private, "test.csv"), answers);
  const sample = makeTable([
    ["Id", { kind: "string", values: ids }],
    ["Label", { kind: "int", values: new Float64Array(ids.length) }],
  ]);
  writeCsv(path.join(ctx.public, "sample_submission.csv"), sample);
}
