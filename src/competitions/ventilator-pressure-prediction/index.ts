import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("ventilator-pressure-prediction", { grader: () => import("./grade.js") });
