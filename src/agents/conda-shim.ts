/**
 * A stand-in `conda` for sandboxes without one. Upstream MLE-bench's start scripts begin with
 * `eval "$(conda shell.bash hook)"` and `conda activate agent`; here the agent's Python is the
 * system's, so the hook defines a shell function whose activate and deactivate do nothing, and
 * every other conda command says plainly that conda is absent. It sits last on PATH, so a real
 * conda (or python) inside the sandbox wins.
 */
export const CONDA_SHIM_DIR = "/run/mlebench/bin";

/** `python` for start scripts that call it (upstream's images have it; Debian has python3). */
export const PYTHON_SHIM = `#!/bin/sh
exec /usr/bin/python3 "$@"
`;

/** The shim's text (a POSIX shell script). */
export const CONDA_SHIM = `#!/bin/sh
# Stand-in for conda (no conda in this sandbox): activate and deactivate are no-ops.
case "$1" in
  shell.*)
    echo 'conda() { case "$1" in activate|deactivate) return 0 ;; *) command conda "$@" ;; esac; }'
    ;;
  activate|deactivate)
    exit 0
    ;;
  *)
    echo "conda: not installed in this sandbox; only 'conda shell.<shell> hook', 'conda activate' and 'conda deactivate' are accepted, and do nothing" >&2
    exit 127
    ;;
esac
`;
