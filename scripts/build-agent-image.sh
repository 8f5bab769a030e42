#!/usr/bin/env bash
# Build the agents' Docker image (mlebench-agent) from Debian packages only, with no registry:
# debootstrap makes a Debian 12 root file system with the agents' Python stack and Node from the
# Debian archive, `docker import` turns it into a base image, and docker/agent.Dockerfile adds
# the user and layout on top. For machines that cannot reach Docker Hub (air-gapped clusters).
#
#   sudo bash scripts/build-agent-image.sh [--with-torch] [--tag NAME] [--mirror URL]
#
# The image is tagged NAME (default mlebench-agent) and NAME:<versions inside>, e.g.
# mlebench-agent:debian12-py3.11-numpy1.24-sklearn1.2. To use an image from a registry instead,
# pull it and set MLEBENCH_DOCKER_IMAGE=<image> for --sandbox docker.
set -euo pipefail

tag=mlebench-agent
torch=0
mirror=""
while [ $# -gt 0 ]; do
  case "$1" in
    --with-torch) torch=1 ;;
    --tag) tag="${2:?--tag needs a name}"; shift ;;
    --mirror) mirror="${2:?--mirror needs a URL}"; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-agent-image: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then echo "build-agent-image: debootstrap needs root; run with sudo" >&2; exit 1; fi
if ! docker info >/dev/null 2>&1; then
  echo "build-agent-image: no Docker engine answers; install docker.io and start dockerd (or: systemctl start docker)" >&2
  exit 1
fi
if ! command -v debootstrap >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
fi
if [ -z "$mirror" ]; then
  # The mirror apt already uses, so a machine with a local mirror needs nothing else.
  mirror=$(grep -rhoE '(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
    | awk '{print $2}' | head -n1 || true)
  mirror=${mirror:-http://deb.debian.org/debian}
fi

pkgs="python3,python3-numpy,python3-pandas,python3-sklearn,python3-scipy,python3-xgboost,curl,gettext-base,nodejs,ca-certificates,passwd"
if [ "$torch" = 1 ]; then pkgs="$pkgs,python3-torch"; fi

work=$(mktemp -d /tmp/mlebench-image-XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "build-agent-image: debootstrap bookworm from $mirror (a few minutes)" >&2
debootstrap --variant=minbase --include="$pkgs" bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 20 "$work/debootstrap.log" >&2
  echo "build-agent-image: debootstrap failed (log above)" >&2
  exit 1
}
rm -rf "$work/rootfs/var/lib/apt/lists/"* "$work/rootfs/var/cache/apt/archives/"*.deb
base=mlebench-base:bookworm
if [ "$torch" = 1 ]; then base=$base-torch; fi
tar -C "$work/rootfs" --numeric-owner -c . | docker import - "$base" >/dev/null
echo "build-agent-image: base image $base" >&2

docker build -q --build-arg BASE="$base" --build-arg INSTALL=0 --build-arg WITH_TORCH="$torch" -t "$tag" -f docker/agent.Dockerfile docker >/dev/null
versions=$(docker run --rm --entrypoint /usr/bin/python3 "$tag" -c \
  'import platform, numpy, sklearn; v = lambda s: ".".join(s.split(".")[:2]); print(f"debian12-py{v(platform.python_version())}-numpy{v(numpy.__version__)}-sklearn{v(sklearn.__version__)}")')
if [ "$torch" = 1 ]; then versions=$versions-torch; fi
docker tag "$tag" "$tag:$versions"
echo "$tag:$versions"
echo "build-agent-image: built $tag and $tag:$versions; --sandbox docker uses $tag (MLEBENCH_DOCKER_IMAGE overrides)" >&2
