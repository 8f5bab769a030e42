import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("tensorflow-speech-recognition-challenge", { grade });
