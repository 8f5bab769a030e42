#!/usr/bin/env bash
# Debian packages the project uses: datasets of the offline benchmark (scikit-learn ships the
# Titanic passenger list; dataset-fashion-mnist; R's dataset packages; fortunes; WordNet), and Python with numpy/pandas/scikit-learn/scipy for the golden
# generators and benchmarks (always called as /usr/bin/python3); xgboost for the baseline agent; bubblewrap and curl
# for the sandbox tests; chromium for the report rendering test; p7zip-full for .7z Kaggle archives; redis-server for
# the distributed-run tests (mlebench run --queue). Needs root.
# python3-levenshtein and python3-requests are there for the tests of the oracle's shims (scripts/golden/upstream/test_compat*.py).
# With --generators, also what only the golden generators import (Pillow, BSON, shapely, NLTK), to regenerate fixtures;
# with --oracle, what upstream MLE-bench's own grade.py and prepare.py import besides (npm run oracle).
set -euo pipefail
pkgs=(python3 python3-numpy python3-pandas python3-sklearn python3-scipy python3-xgboost python3-levenshtein python3-requests dataset-fashion-mnist bubblewrap curl chromium p7zip-full redis-server)
# Datasets of the offline benchmark that ship as R packages (read with Debian's R at prepare time) or as Debian data files.
pkgs+=(r-base-core r-cran-modeldata r-cran-mlbench r-cran-dslabs r-cran-kernlab r-cran-janeaustenr fortunes wordnet-base)
case "${1:-}" in
  --generators) pkgs+=(python3-pil python3-bson python3-shapely python3-nltk) ;;
  --oracle) pkgs+=(python3-pil python3-bson python3-shapely python3-py7zr python3-tqdm python3-yaml python3-requests) ;;
esac
if ! command -v dpkg-query >/dev/null; then
  echo "setup-system: not a Debian system; install by hand: ${pkgs[*]} (the offline benchmark's datasets come from them)" >&2
  exit 0
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-system: all Debian packages present"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "setup-system: missing ${missing[*]}; run as root: sudo bash scripts/setup-system.sh" >&2
  exit 1
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
