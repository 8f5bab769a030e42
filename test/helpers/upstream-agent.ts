import fs from "node:fs";
import path from "node:path";
import { tempDir } from "./data-dir.js";

/** An agents folder in upstream MLE-bench's layout: agents/<id>/{config.yaml, start.sh, main.py}. */
export function upstreamAgentsDir(config: string): string {
  const agents = path.join(tempDir(), "agents");
  const own = path.join(agents, "copier");
  fs.mkdirSync(own, { recursive: true });
  fs.writeFileSync(path.join(own, "config.yaml"), config);
  // Like upstream's start scripts: a conda hook, `python`, the four folders by variable.
  fs.writeFileSync(
    path.join(own, "start.sh"),
    [
      "#!/bin/bash",
      'eval "$(conda shell.bash hook)"',
      "conda activate agent",
      'echo "args: $*"',
      'echo "dirs: $AGENT_DIR $CODE_DIR $LOGS_DIR $SUBMISSION_DIR $COMPETITION_ID"',
      "python ${AGENT_DIR}/main.py",
      "touch $CODE_DIR/code.py $LOGS_DIR/run.log $AGENT_DIR/agent_was_here.txt",
      "bash /home/validate_submission.sh $SUBMISSION_DIR/submission.csv",
      "",
    ].join("\n"),
  );
  fs.writeFileSync(
    path.join(own, "main.py"),
    "import shutil\nfrom pathlib import Path\nhere = Path(__file__).parent\n" +
      "shutil.copy(here.parent / 'data' / 'sample_submission.csv', here.parent / 'submission' / 'submission.csv')\nprint('copied')\n",
  );
  return agents;
}
