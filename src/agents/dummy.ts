import path from "node:path";
import type { Agent, AgentContext, AgentOutcome } from "./types.js";

/**
 * The dummy agent's script: copy the sample submission, have it validated, and try the places
 * private answers or host secrets could leak through, printing one line per attempt.
 */
const SCRIPT = String.raw`set -u
sample="$1"; submission_dir="$2"; validate="$3"; private_guess="$4"
echo "dummy: uid=$(id -u) host=$(hostname)"
for p in /private /private/data "$private_guess" /root /root/.cache/mle-bench /home/data/../private \
         /home/data/../../private /proc/1/root/root "$HOME/../../root"; do
  if ls "$p" >/dev/null 2>&1 && [ -n "$(ls -A "$p" 2>/dev/null)" ]; then echo "LEAK readable: $p"; else echo "private-check $p: not readable"; fi
done
for v in OPENAI_API_KEY ANTHROPIC_API_KEY KAGGLE_KEY KAGGLE_USERNAME AWS_SECRET_ACCESS_KEY; do
  if [ -n "$(printenv "$v" 2>/dev/null)" ]; then echo "LEAK env: $v"; else echo "env-check $v: absent"; fi
done
cp "$sample" "$submission_dir/submission.csv" && echo "dummy: copied $(basename "$sample") to $submission_dir/submission.csv"
if [ -x "$validate" ] || [ -f "$validate" ]; then echo "dummy: validation: $(bash "$validate" "$submission_dir/submission.csv" 2>&1)"; fi
`;

/** An agent that submits the sample submission (and shows it cannot reach private data). */
export function dummyAgent(): Agent {
  return {
    id: "dummy",
    env: {},
    secretNames: [],
    allowHosts: [],
    files: {},
    async run(ctx: AgentContext): Promise<AgentOutcome> {
      const { paths } = ctx.sandbox;
      const sample = path.posix.join(paths.data, ctx.competition.sampleSubmission);
      const privateGuess = `/root/.cache/mle-bench/data/${ctx.competition.id}/prepared/private`;
      const r = await ctx.sandbox.exec(
        ["/bin/bash", "-s", "--", sample, paths.submission, paths.validateScript, privateGuess],
        { input: SCRIPT, logFile: ctx.agentLog, cwd: paths.workspace },
      );
      return { reason: r.reason, exitCode: r.exitCode, signal: r.signal };
    },
  };
}
