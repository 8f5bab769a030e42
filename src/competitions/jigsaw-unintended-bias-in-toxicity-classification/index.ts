import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("jigsaw-unintended-bias-in-toxicity-classification", { grader: () => import("./grade.js") });
