import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "statoil-iceberg-classifier-challenge",
  name: "Statoil/C-CORE Iceberg Classifier Challenge",
  type: "simple",
  complexity: "medium",
  metric: "log-loss",
  answers: "test.csv",
  sampleSubmission: "../private/sample_submission.csv",
  grade,
};
