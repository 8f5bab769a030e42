import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("mlsp-2013-birds", { grader: () => import("./grade.js") });
