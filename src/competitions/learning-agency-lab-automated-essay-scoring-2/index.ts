import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("learning-agency-lab-automated-essay-scoring-2", { grader: () => import("./grade.js") });
