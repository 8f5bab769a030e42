import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("tabular-playground-series-may-2022", { grader: () => import("./grade.js") });
