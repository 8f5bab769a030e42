import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "google-research-identify-contrails-reduce-global-warming",
  name: "Google Research - Identify Contrails to Reduce Global Warming",
  type: "code",
  complexity: "high",
  metric: "global-dice",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
