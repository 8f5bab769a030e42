import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("google-quest-challenge", { grader: () => import("./grade.js") });
