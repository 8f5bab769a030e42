# The agents' environment for `--sandbox docker`: Debian's Python data-science stack plus Node
# (the harness runs its init script, mounted at /run/mlebench/init.mjs, with it).
#
# Build from the repository root:
#   docker build -t mlebench-agent -f docker/agent.Dockerfile .
# With PyTorch (CPU build from Debian; large):
#   docker build --build-arg WITH_TORCH=1 -t mlebench-agent -f docker/agent.Dockerfile .
# Without Docker Hub (air-gapped machines): scripts/build-agent-image.sh builds the base from the
# Debian archive with debootstrap and passes BASE and INSTALL=0 here.
# Another tag works too if MLEBENCH_DOCKER_IMAGE names it.
#
# Nothing from the host goes in: the competition data, the writable dirs, the init script and the
# harness sockets are mounted per run, so the image holds no data and no secrets.
ARG BASE=debian:12-slim
FROM ${BASE}

ARG WITH_TORCH=0
# 0 when BASE already holds the packages (scripts/build-agent-image.sh).
ARG INSTALL=1

RUN set -eux; \
    if [ "$INSTALL" = "0" ]; then exit 0; fi; \
    pkgs="python3 python3-numpy python3-pandas python3-sklearn python3-scipy python3-xgboost curl gettext-base nodejs ca-certificates"; \
    if [ "$WITH_TORCH" = "1" ]; then pkgs="$pkgs python3-torch"; fi; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pkgs; \
    rm -rf /var/lib/apt/lists/*

# The same layout upstream MLE-bench gives agents. /home itself stays root's so only the run
# directories are writable; /run/mlebench is where the harness mounts its helpers.
RUN set -eux; \
    useradd --uid 1000 --user-group --home-dir /home/workspace --no-create-home --shell /bin/bash agent; \
    mkdir -p /home/data /home/submission /home/code /home/logs /home/workspace /home/agent /run/mlebench; \
    chown agent:agent /home/submission /home/code /home/logs /home/workspace /home/agent

# HOME must be writable (pip caches, ~/.config), and /home is not; the bwrap sandbox does the same.
ENV HOME=/home/workspace
USER 1000:1000
WORKDIR /home
CMD ["sleep", "infinity"]
