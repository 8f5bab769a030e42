import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../../../core/errors.js";
import type { ResearchTask } from "../types.js";
import { findFolder, runEvaluation, urlResearchTask, type UrlDataset } from "../url-data.js";

const TASK_DIR = fileURLToPath(new URL(".", import.meta.url));
const FILES_DIR = fileURLToPath(new URL("./files/", import.meta.url));
/** Our evaluation program: perplexity of output/ on the test split. */
export const EVALUATOR = fileURLToPath(new URL("./evaluate.py", import.meta.url));

/** The ten corpora every BabyLM split is made of, in the order the evaluation reads them. */
export const SOURCES = ["aochildes", "bnc_spoken", "cbt", "children_stories", "gutenberg", "open_subtitles", "qed", "simple_wikipedia", "switchboard", "wikipedia"];
/** The folders of babylm_data/ the workspace gets, with the file suffix of each. */
export const PUBLIC_SPLITS = [
  { folder: "babylm_10M", suffix: "train" },
  { folder: "babylm_dev", suffix: "dev" },
] as const;
/** The held-out split, kept in the task's private folder. */
export const TEST_SPLIT = { folder: "babylm_test", suffix: "test" } as const;
/** Limit on one evaluation, ms. */
const TIMEOUT_MS = 3600_000;

/** The research problem, in the task's own words. */
export const STATEMENT = `Train a better language model from scratch on the BabyLM Challenge's small corpus: about as much text as a child hears by age 13. babylm_data/babylm_10M/ has the 10-million-word training set, as ten plain-text files (.train) from sources such as children's books, child-directed speech, film subtitles and Simple Wikipedia, one text per line; babylm_data/babylm_dev/ has a development set from the same sources (.dev). Models must be built with Hugging Face transformers and trained from scratch only on this data (a pretrained tokenizer is allowed, no pretrained weights). train.py trains a small GPT-2 for one epoch and saves the model and tokenizer to output/.

How your work is scored: the evaluator does not run train.py; it loads whatever is in output/ with transformers' AutoModelForCausalLM and AutoTokenizer and measures its perplexity on a held-out test set from the same ten sources, which is not in the workspace. Every line is one example; examples are tokenised and concatenated a thousand at a time and cut into blocks of min(the tokenizer's model_max_length, 1024) tokens. The score is exp of the mean causal language-modelling loss over those blocks; lower is better. Everything under babylm_data/ is read-only.`;

/** Check that `dir` holds all ten source files with `suffix`; a UserError names the first missing one. */
function requireSplit(dir: string, suffix: string): void {
  for (const source of SOURCES) {
    if (!fs.existsSync(path.join(dir, `${source}.${suffix}`))) throw new UserError(`babylm_data.zip: ${path.basename(dir)}/${source}.${suffix} is missing`);
  }
}

/** The BabyLM archive: the 10M-word training set and the dev set for workspaces, the test set kept private. */
export const BABYLM_DATA: UrlDataset = {
  task: "babylm",
  downloads: [
    {
      url: "https://github.com/babylm/babylm.github.io/raw/main/babylm_data.zip",
      file: "babylm_data.zip",
      // The organisers publish no checksum or size; what is checked is that the three splits used are complete.
    },
  ],
  async build({ extracted, public: pub, private: priv }) {
    const root = findFolder(extracted, "babylm_data", "babylm_data.zip");
    for (const { folder, suffix } of [...PUBLIC_SPLITS, TEST_SPLIT]) requireSplit(path.join(root, folder), suffix);
    // The 100M-word set and the archive's __MACOSX metadata are left out, as the benchmark does.
    for (const { folder } of PUBLIC_SPLITS) fs.cpSync(path.join(root, folder), path.join(pub, "babylm_data", folder), { recursive: true });
    fs.cpSync(path.join(root, TEST_SPLIT.folder), path.join(priv, TEST_SPLIT.folder), { recursive: true });
  },
};

/** Train a small language model on BabyLM data (upstream MLAgentBench's "babylm"). */
export const babylmTask: ResearchTask = urlResearchTask({
  name: "babylm",
  statement: STATEMENT,
  metric: "perplexity of output/ on the BabyLM test set",
  direction: "lower",
  taskDir: TASK_DIR,
  filesDir: FILES_DIR,
  readOnly: ["babylm_data"],
  data: BABYLM_DATA,
  score: (workspaceDir, runner, ctx) =>
    runEvaluation({
      workspaceDir,
      runner,
      script: EVALUATOR,
      privateFiles: [path.join(ctx.dataDir, "private", TEST_SPLIT.folder)],
      timeoutMs: TIMEOUT_MS,
      what: "output/",
    }),
});
