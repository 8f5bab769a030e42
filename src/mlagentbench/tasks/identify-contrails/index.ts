import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InvalidSubmissionError, UserError } from "../../../core/errors.js";
import { rleDecode } from "../../../metrics/rle.js";
import { alignRows, copyIfPresent, kaggleResearchTask, rawFile, readSubmissionWithIds, submissionColumn, taskDataPaths, textCells } from "../kaggle-data.js";
import type { TaskContext } from "../types.js";
import { readMaskNpy, type Mask } from "./masks.js";

/** The Kaggle competition the data comes from. */
export const COMPETITION = "google-research-identify-contrails-reduce-global-warming";

/** The file of a record holding its aggregated human labels, the answers for the test records. */
const MASK_FILE = "human_pixel_masks.npy";

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds geostationary satellite images (GOES-16, infrared) in which aviation contrails are to be found (data_description.txt describes them). Each folder of train/ is one scene (its record_id): band_08.npy to band_16.npy hold brightness temperatures of nine infrared bands as H × W × 8 arrays, a sequence of eight images 10 minutes apart of which the fifth (index 4) is the labelled one, human_pixel_masks.npy the H × W × 1 mask of contrail pixels agreed by the labellers, and human_individual_masks.npy each labeller's mask. test/ holds scenes with the bands only. train.py is a first attempt: a per-pixel logistic regression on a false-colour image of three bands, which prints its Dice score on held-out training scenes and writes the test masks, run-length encoded with encode.py, to submission.csv. Improve on it, for instance with a convolutional segmentation network (with PyTorch, where it is installed) or with the temporal context, checking every idea on held-out scenes.

How your work is scored: the evaluator runs train.py from the workspace and reads the submission.csv it writes, with the columns record_id and encoded_pixels: for every scene of test/, the mask's run-length encoding (pairs "start length", pixels numbered from 1 down each column, then across the columns) or "-" for an empty mask. Other rows (such as sample_submission.csv's own) are ignored. The score is the Dice coefficient 2|P∩T| / (|P| + |T|) of each test scene's mask (with 1e-6 added above and below, so an empty mask predicted empty scores 1), averaged over the scenes; higher is better. The true test masks are not in the workspace. The data folders and metadata files may not be changed.`;

function linkOrCopy(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    // The bands are hundreds of gigabytes; a hard link costs no space and leaves the download intact.
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}

function records(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/**
 * Upstream's split: Kaggle's (hidden) test folder is dropped, the validation scenes become test/
 * without their masks, and those masks become the answers; train/ is kept whole.
 */
export function splitContrails(raw: string, pub: string, priv: string): void {
  const train = rawFile(raw, "train");
  const validation = rawFile(raw, "validation");
  for (const id of records(train)) {
    for (const f of fs.readdirSync(path.join(train, id))) linkOrCopy(path.join(train, id, f), path.join(pub, "train", id, f));
  }
  for (const id of records(validation)) {
    const files = fs.readdirSync(path.join(validation, id));
    if (!files.includes(MASK_FILE)) throw new UserError(`The downloaded validation scene ${id} has no ${MASK_FILE}`);
    for (const f of files) {
      const target = f === MASK_FILE ? path.join(priv, "test_answer", id, f) : path.join(pub, "test", id, f);
      linkOrCopy(path.join(validation, id, f), target);
    }
  }
  for (const f of ["sample_submission.csv", "train_metadata.json", "validation_metadata.json"]) copyIfPresent(raw, pub, f);
}

/** Dice with 1e-6 added to numerator and denominator, as the task's evaluator computes it per scene. */
export function smoothedDice(pred: Uint8Array, truth: Uint8Array): number {
  let inter = 0;
  let sum = 0;
  for (let i = 0; i < pred.length; i++) {
    inter += pred[i] & truth[i];
    sum += pred[i] + truth[i];
  }
  return (2 * inter + 1e-6) / (sum + 1e-6);
}

function decode(rle: string | null, mask: Mask, row: number, id: string): Uint8Array {
  if (rle === null) throw new InvalidSubmissionError(`submission.csv row ${row + 1} (record ${id}): encoded_pixels is empty; write "-" for an empty mask`);
  if (rle.trim() === "-") return new Uint8Array(mask.height * mask.width);
  try {
    return rleDecode(rle, mask.height, mask.width);
  } catch (e) {
    throw new InvalidSubmissionError(`submission.csv row ${row + 1} (record ${id}): encoded_pixels is not a valid run-length encoding: ${(e as Error).message}`);
  }
}

/** Mean per-scene smoothed Dice of submission.csv's masks against the hidden test masks, matched by record_id. */
export function gradeContrails(workspaceDir: string, ctx: TaskContext): number {
  const answers = path.join(taskDataPaths(ctx).private, "test_answer");
  const ids = records(answers);
  if (ids.length === 0) throw new UserError(`No test masks in ${answers}; run \`mlebench tasks prepare identify-contrails\` again`);
  const submission = readSubmissionWithIds(workspaceDir, ["record_id", "encoded_pixels"]);
  const rows = alignRows(submission, "record_id", ids, true);
  const encoded = textCells(submissionColumn(submission, "encoded_pixels"));
  let total = 0;
  for (let k = 0; k < ids.length; k++) {
    const truth = readMaskNpy(path.join(answers, ids[k], MASK_FILE));
    total += smoothedDice(decode(encoded[rows[k]], truth, rows[k], ids[k]), truth.data);
  }
  return total / ids.length;
}

/** Find aviation contrails in satellite images. */
export const identifyContrailsTask = kaggleResearchTask({
  name: "identify-contrails",
  competition: COMPETITION,
  statement: STATEMENT,
  metric: "mean Dice coefficient of the test scenes' contrail masks (0 to 1)",
  direction: "higher",
  filesDir: fileURLToPath(new URL("./files/", import.meta.url)),
  taskDir: fileURLToPath(new URL(".", import.meta.url)),
  readOnly: ["test", "train", "train_metadata.json", "validation_metadata.json"],
  timeoutMs: 3_600_000,
  split: splitContrails,
  grade: gradeContrails,
});
