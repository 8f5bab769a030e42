import { UserError } from "../core/errors.js";

/** A machine's GPUs shared by the runs going on at once, each holding `perRun` of them while it runs. */
export class GpuPool {
  private readonly free: number[];

  constructor(
    gpus: number[],
    readonly perRun: number,
  ) {
    this.free = [...gpus].sort((a, b) => a - b);
  }

  /** GPUs for a run starting now (the lowest free ones). */
  take(): number[] {
    // Callers never run more at once than the pool has slots for (gpuPool checks it).
    if (this.free.length < this.perRun) throw new Error(`no ${this.perRun} free GPUs (free: ${this.free.join(",") || "none"})`);
    return this.free.splice(0, this.perRun);
  }

  /** Return a finished run's GPUs. */
  give(ids: number[]): void {
    this.free.push(...ids);
    this.free.sort((a, b) => a - b);
  }
}

/**
 * The pool for `--gpus-per-run n` (null without it: every run gets every GPU), refusing a number of runs at once
 * that would not each find `n` free GPUs.
 */
export function gpuPool(gpus: number[], perRun: number | undefined, concurrency: number, concurrencyFlag: string): GpuPool | null {
  if (perRun === undefined) return null;
  if (gpus.length === 0) throw new UserError("--gpus-per-run needs --gpus <list> to share out");
  if (perRun > gpus.length) throw new UserError(`--gpus-per-run ${perRun}: --gpus gives only ${gpus.length} GPU(s)`);
  const slots = Math.floor(gpus.length / perRun);
  if (concurrency > slots) {
    throw new UserError(
      `${concurrencyFlag} ${concurrency} runs at once need ${concurrency * perRun} GPUs at ${perRun} per run, but --gpus gives ${gpus.length}; ` +
        `use ${concurrencyFlag} ${slots} or fewer`,
    );
  }
  return new GpuPool(gpus, perRun);
}
