import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "dna-splice",
  name: "DNA splice junctions: exon to intron, intron to exon, or neither?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "multi-class-log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 13,
    sources: {
      dna: { kind: "r", package: "r-cran-mlbench", library: "mlbench", dataset: "DNA" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
