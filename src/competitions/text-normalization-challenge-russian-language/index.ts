import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("text-normalization-challenge-russian-language", { grader: () => import("./grade.js") });
