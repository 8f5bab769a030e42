import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("the-icml-2013-whale-challenge-right-whale-redux", { grader: () => import("./grade.js") });
