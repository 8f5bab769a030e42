import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { InvalidSubmissionError, UserError } from "../../../core/errors.js";
import { readLabels, readSubmission } from "../cifar10/probabilities.js";
import type { ResearchTask, TaskContext } from "../types.js";
import { findFolder, urlResearchTask, type UrlDataset } from "../url-data.js";

const TASK_DIR = fileURLToPath(new URL(".", import.meta.url));
const FILES_DIR = fileURLToPath(new URL("./files/", import.meta.url));

/** Where the answers live under the task's private folder: idx (position in the test split), label. */
export const ANSWERS = "test_labels.csv";
/** The folder, inside the workspace, that holds the graph. */
export const GRAPH_DIR = "networks/ogbn_arxiv";
/** Files the archive must contain, relative to its arxiv/ folder. */
export const REQUIRED_FILES = [
  "raw/node-feat.csv.gz",
  "raw/node-label.csv.gz",
  "raw/edge.csv.gz",
  "raw/node_year.csv.gz",
  "raw/num-node-list.csv.gz",
  "raw/num-edge-list.csv.gz",
  "split/time/train.csv.gz",
  "split/time/valid.csv.gz",
  "split/time/test.csv.gz",
];
/** Limit on one run of train.py when scoring, ms. */
const TIMEOUT_MS = 3 * 3600_000;

/** The research problem, in the task's own words. */
export const STATEMENT = `The workspace holds ogbn-arxiv from the Open Graph Benchmark in networks/ogbn_arxiv/: a citation graph of 169,343 computer-science papers on arXiv, as OGB distributes it. raw/node-feat.csv.gz has a 128-number vector per paper (the average word embedding of its title and abstract), raw/edge.csv.gz the citations (one "citing,cited" pair of paper numbers per line), raw/node_year.csv.gz the publication years and raw/node-label.csv.gz each paper's subject area (one of 40 arXiv categories, 0 to 39). The papers are split by date into split/time/train.csv.gz, valid.csv.gz and test.csv.gz (one paper number per line); the labels of the test papers are withheld and shown as -1. train.py trains a small perceptron on the paper vectors alone for 4 epochs and writes its predictions for the test papers to submission.csv. Improve on its accuracy with the present setup as the starting point, keeping training to at most 10 epochs; the citation edges are there to be used.

How your work is scored: the evaluator runs train.py and reads the submission.csv it writes. It must have a header row and then exactly one column with one predicted category (a whole number from 0 to 39) per test paper, in the order of split/time/test.csv.gz, like the file train.py writes now. The score is the share of test papers whose category is predicted correctly (accuracy, 0 to 1); higher is better. Everything under networks/ is read-only.`;

/** Whole numbers, one per line, of a gzipped OGB csv with no header. */
function readNumbers(file: string): number[] {
  const text = zlib.gunzipSync(fs.readFileSync(file)).toString("utf8");
  const out: number[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    const t = line.trim();
    if (t === "") continue;
    if (!/^-?\d+$/.test(t)) throw new UserError(`${file}: line ${i + 1} is "${t.slice(0, 40)}", expected a whole number`);
    out.push(Number(t));
  }
  return out;
}

/** The OGB arxiv archive and how its test labels are kept out of the workspace. */
export const OGBN_ARXIV_DATA: UrlDataset = {
  task: "ogbn-arxiv",
  downloads: [
    {
      url: "http://snap.stanford.edu/ogb/data/nodeproppred/arxiv.zip",
      file: "arxiv.zip",
      // OGB publishes no checksum; this is the SHA-256 other projects independently record for the archive.
      sha256: "49f85c801589ecdcc52cfaca99693aaea7b8af16a9ac3f41dd85a5f3193fe276",
    },
  ],
  async build({ extracted, public: pub, private: priv }) {
    const root = findFolder(extracted, "arxiv", "arxiv.zip");
    for (const rel of REQUIRED_FILES) {
      if (!fs.existsSync(path.join(root, rel))) throw new UserError(`arxiv.zip: arxiv/${rel} is missing`);
    }
    const labels = readNumbers(path.join(root, "raw/node-label.csv.gz"));
    const test = readNumbers(path.join(root, "split/time/test.csv.gz"));
    const answers = ["idx,label"];
    const hidden = [...labels];
    for (const [i, node] of test.entries()) {
      if (node < 0 || node >= labels.length) throw new UserError(`arxiv.zip: split/time/test.csv.gz line ${i + 1} names paper ${node}, but there are ${labels.length} papers`);
      answers.push(`${i},${labels[node]}`);
      hidden[node] = -1;
    }
    const target = path.join(pub, GRAPH_DIR);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.cpSync(root, target, { recursive: true });
    fs.writeFileSync(path.join(target, "raw/node-label.csv.gz"), zlib.gzipSync(hidden.join("\n") + "\n"));
    fs.writeFileSync(path.join(priv, ANSWERS), answers.join("\n") + "\n");
  },
};

/** Accuracy of `<workspaceDir>/submission.csv` (one predicted category per test paper) against the withheld labels. */
export function gradeOgbnArxiv(workspaceDir: string, ctx: TaskContext): number {
  const labels = readLabels(path.join(ctx.dataDir, "private", ANSWERS));
  const submission = readSubmission(workspaceDir);
  if (submission.columns.length !== 1) {
    throw new InvalidSubmissionError(`submission.csv must have exactly one column (the predicted category); it has ${submission.columns.length}: ${submission.columns.join(", ")}`);
  }
  if (submission.rowCount !== labels.length) {
    throw new InvalidSubmissionError(`submission.csv has ${submission.rowCount} rows after the header; it needs one per test paper, ${labels.length}`);
  }
  const column = submission.data.get(submission.columns[0])!;
  if (column.kind !== "int" && column.kind !== "float") throw new InvalidSubmissionError("submission.csv must hold whole numbers (categories 0 to 39)");
  let correct = 0;
  for (let i = 0; i < labels.length; i++) {
    const v = column.values[i];
    if (!Number.isInteger(v)) throw new InvalidSubmissionError(`submission.csv row ${i + 2}: "${v}" is not a category number (a whole number from 0 to 39)`);
    if (v === labels[i]) correct++;
  }
  return correct / labels.length;
}

/** Node classification on the arXiv citation graph (upstream MLAgentBench's "ogbn-arxiv"). */
export const ogbnArxivTask: ResearchTask = urlResearchTask({
  name: "ogbn-arxiv",
  statement: STATEMENT,
  metric: "accuracy on the 48,603 ogbn-arxiv test papers (0 to 1)",
  direction: "higher",
  taskDir: TASK_DIR,
  filesDir: FILES_DIR,
  readOnly: ["networks"],
  data: OGBN_ARXIV_DATA,
  timeoutMs: TIMEOUT_MS,
  score: (workspaceDir, _runner, ctx) => gradeOgbnArxiv(workspaceDir, ctx),
});
