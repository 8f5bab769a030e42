import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "lmsys-chatbot-arena",
  name: "LMSYS - Chatbot Arena Human Preference Predictions",
  type: "code",
  complexity: "medium",
  metric: "multi-class-log-loss",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
