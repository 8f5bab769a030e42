import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("predict-volcanic-eruptions-ingv-oe", { grade });
