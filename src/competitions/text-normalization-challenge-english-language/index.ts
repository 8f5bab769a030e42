import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("text-normalization-challenge-english-language", { grader: () => import("./grade.js") });
