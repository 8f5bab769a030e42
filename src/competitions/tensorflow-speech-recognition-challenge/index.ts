import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("tensorflow-speech-recognition-challenge", { grader: () => import("./grade.js") });
