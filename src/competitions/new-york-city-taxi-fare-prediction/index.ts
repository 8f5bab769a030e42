import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("new-york-city-taxi-fare-prediction", { grader: () => import("./grade.js") });
