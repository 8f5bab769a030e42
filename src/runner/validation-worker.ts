/**
 * The validation server's grading thread: it holds the answers and judges one uploaded file at a
 * time, so a submission that takes long to parse or grade never stalls the server's event loop,
 * and the server can end this thread (and start another) when a check runs past its time.
 */
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { loadCompetition } from "../competitions/registry.js";
import { loadAnswers } from "../grading/grade.js";
import { judgeSubmission, type Verdict } from "./validation-judge.js";

/** What the server hands the thread when it starts it. */
export interface WorkerConfig {
  competitionId: string;
  answersFile: string;
}

/** One job: the upload's bytes are in `file`; the reply carries the same id. */
export interface WorkerJob {
  id: number;
  file: string;
}

/** The thread's reply to a job. */
export interface WorkerReply {
  id: number;
  verdict: Verdict;
}

const config = workerData as WorkerConfig;
const competition = await loadCompetition(config.competitionId);
const answers = loadAnswers(config.answersFile, competition.answersFields);
parentPort!.postMessage({ ready: true });
parentPort!.on("message", (job: WorkerJob) => {
  let verdict: Verdict;
  try {
    verdict = judgeSubmission(competition, answers, fs.readFileSync(job.file));
  } catch {
    verdict = { valid: false, reason: "Submission could not be read." };
  }
  parentPort!.postMessage({ id: job.id, verdict } satisfies WorkerReply);
});
