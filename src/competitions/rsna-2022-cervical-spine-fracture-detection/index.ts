import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("rsna-2022-cervical-spine-fracture-detection", { grade });
