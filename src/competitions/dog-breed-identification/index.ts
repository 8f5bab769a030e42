import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("dog-breed-identification", { grader: () => import("./grade.js") });
