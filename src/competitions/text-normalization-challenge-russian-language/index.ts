import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "text-normalization-challenge-russian-language",
  name: "Text Normalization Challenge - Russian Language",
  type: "simple",
  complexity: "low",
  category: "Seq->Seq",
  metric: "accuracy",
  answers: "answers.csv",
  // Upstream's config points at the private copy; the public one is zipped under another name.
  sampleSubmission: "../private/sample_submission.csv",
  grade,
};
