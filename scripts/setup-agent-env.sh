#!/usr/bin/env bash
# Debian packages of the agents' environment for the default (bubblewrap) sandbox: bwrap itself,
# curl for /home/validate_submission.sh, and the Python stack agents are promised, always run as
# /usr/bin/python3. `mlebench doctor` checks the same list. Needs root to install.
#   bash scripts/setup-agent-env.sh [--with-torch]
set -euo pipefail
pkgs=(bubblewrap curl gettext-base python3 python3-numpy python3-pandas python3-sklearn python3-scipy python3-xgboost)
for arg in "$@"; do
  case "$arg" in
    --with-torch) pkgs+=(python3-torch) ;;
    -h | --help)
      echo "usage: bash scripts/setup-agent-env.sh [--with-torch]"
      echo "  --with-torch  also install PyTorch (python3-torch, CPU build)"
      exit 0
      ;;
    *)
      echo "setup-agent-env: unknown argument: $arg (only --with-torch is accepted)" >&2
      exit 2
      ;;
  esac
done
if ! command -v dpkg-query >/dev/null; then
  echo "setup-agent-env: not a Debian system; install by hand the equivalents of: ${pkgs[*]}" >&2
  exit 1
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-agent-env: all Debian packages present"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "setup-agent-env: missing ${missing[*]}; run as root: sudo bash scripts/setup-agent-env.sh${*:+ $*}" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
