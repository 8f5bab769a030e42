"""Upstream MLE-bench's package, importable: from a checkout (a folder holding mlebench/) or from a
git directory (bare or not) at a commit, unpacked with `git archive` into a temporary folder. The
pinned commit is read from src/sources/upstream/fetch.ts, so the oracle and the product agree on it."""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
FETCH_TS = os.path.join(REPO, "src", "sources", "upstream", "fetch.ts")


def pinned_commit():
    """The commit the product pins (UPSTREAM_COMMIT in fetch.ts)."""
    with open(FETCH_TS) as f:
        m = re.search(r'export const UPSTREAM_COMMIT = "([0-9a-f]{40})"', f.read())
    if not m:
        raise SystemExit(f"oracle: no UPSTREAM_COMMIT in {FETCH_TS}")
    return m.group(1)


def _git(args, cwd=None, **kw):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, **kw).stdout


def _git_dir(path):
    """The git directory of path when it is one (bare) or has one (.git), else None."""
    for candidate in (path, os.path.join(path, ".git")):
        if os.path.isfile(os.path.join(candidate, "HEAD")) and os.path.isdir(os.path.join(candidate, "objects")):
            return candidate
    return None


class Snapshot:
    """Upstream's source tree at one commit, with mlebench importable."""

    def __init__(self, source, commit=None):
        source = os.path.abspath(source)
        if not os.path.isdir(source):
            raise SystemExit(f"oracle: {source}: no such folder (give a checkout of openai/mle-bench or its git directory)")
        want = commit or pinned_commit()
        git_dir = _git_dir(source)
        self._tmp = None
        if os.path.isdir(os.path.join(source, "mlebench")) and (commit is None or git_dir is None):
            # A checkout: use its files as they are, but only at the pinned commit.
            head = _git(["--git-dir", git_dir, "rev-parse", "HEAD"]).decode().strip() if git_dir else None
            if head is not None and head != want:
                raise SystemExit(f"oracle: {source} is at {head}, not {want}; check out {want} or pass its git directory")
            self.root, self.commit = source, head or want
        elif git_dir is not None:
            try:
                _git(["--git-dir", git_dir, "cat-file", "-e", want + "^{commit}"])
            except subprocess.CalledProcessError:
                raise SystemExit(f"oracle: {git_dir} has no commit {want}; fetch it first")
            self._tmp = tempfile.TemporaryDirectory(prefix="mlebench-upstream-")
            archive = _git(["--git-dir", git_dir, "archive", want, "mlebench"])
            subprocess.run(["tar", "x", "-C", self._tmp.name], input=archive, check=True)
            self.root, self.commit = self._tmp.name, want
        else:
            raise SystemExit(f"oracle: {source} holds neither mlebench/ nor a git repository")
        if self.root not in sys.path:
            sys.path.insert(0, self.root)

    def competition_dir(self, cid):
        return os.path.join(self.root, "mlebench", "competitions", cid)

    def config(self, cid):
        """The competition's config.yaml, parsed."""
        import yaml

        with open(os.path.join(self.competition_dir(cid), "config.yaml")) as f:
            return yaml.safe_load(f)

    def function(self, spec):
        """A function named as upstream's configs name them: "package.module:function"."""
        import importlib

        module, name = spec.split(":")
        return getattr(importlib.import_module(module), name)
