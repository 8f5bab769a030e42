import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "learning-agency-lab-automated-essay-scoring-2",
  name: "Learning Agency Lab - Automated Essay Scoring 2.0",
  type: "code",
  complexity: "medium",
  metric: "quadratic-weighted-kappa",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
