import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("jigsaw-unintended-bias-in-toxicity-classification", { grade });
