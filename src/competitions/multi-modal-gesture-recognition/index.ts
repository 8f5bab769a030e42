import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("multi-modal-gesture-recognition", { grader: () => import("./grade.js") });
