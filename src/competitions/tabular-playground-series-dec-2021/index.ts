import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("tabular-playground-series-dec-2021", { grader: () => import("./grade.js") });
