import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("freesound-audio-tagging-2019", { grader: () => import("./grade.js") });
