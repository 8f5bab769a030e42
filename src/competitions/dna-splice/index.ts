import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";
import { prepare } from "./prepare.js";

export const competition: Competition = {
  id: "dna-splice",
  name: "DNA splice junctions: exon to intron, intron to exon, or neither?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "multi-class-log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
  offline: {
    order: 13,
    sources: {
      dna: { kind: "r", package: "r-cran-mlbench", library: "mlbench", dataset: "DNA" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    prepare,
  },
};
