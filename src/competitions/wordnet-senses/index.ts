import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "wordnet-senses",
  name: "WordNet senses: what kind of thing is it?",
  type: "simple",
  complexity: "low",
  category: "Text Classification",
  metric: "mean-column-wise-roc-auc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 22,
    sources: {
      // The whole database folder, so that its index and other files are hidden from agents too.
      wordnet: { kind: "debian", package: "wordnet-base", path: "/usr/share/wordnet" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
