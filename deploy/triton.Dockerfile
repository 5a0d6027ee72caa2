# syntax=docker/dockerfile:1
# Triton Inference Server for the PHI tagger. The NGC image's python backend runs
# triton_models/phi_tagger/1/model.py, which imports deid_core (and torch, numpy, pydantic, tqdm) from
# the path in DEID_TRITON_SITE_PACKAGES. They are installed with --target into /opt/deid/site-packages,
# apart from the image's own Python packages. Build from the repository root:
#   docker build -f deploy/triton.Dockerfile -t deid-stream-triton:0.1.0 .
# 25.10 is Ubuntu 24.04 with Python 3.12 (the python backend stub's interpreter) and CUDA 13.0.
FROM nvcr.io/nvidia/tritonserver:25.10-py3
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DEID_TRITON_SITE_PACKAGES=/opt/deid/site-packages
WORKDIR /src
COPY deploy/constraints.txt /src/deploy/constraints.txt
COPY pyproject.toml README.md /src/
COPY schemas /src/schemas
COPY deid_core /src/deid_core
COPY workers /src/workers
# torch from PyPI is the CUDA build; numpy stays below 2 (the stub exchanges tensors with numpy 1).
# Only what deid_core.tagger imports is installed: the project itself goes in without its dependencies.
# torch brings its own CUDA libraries and cuDNN (site-packages/nvidia/*/lib) and finds them through its
# RUNPATH, but LD_LIBRARY_PATH is searched first, and the NGC image's lists the image's CUDA folders: a
# cuDNN there older than torch's (seen: a system 9.14 ahead of torch's 9.19) loads instead and the
# model fails to load. So links to torch's libraries go into one folder, first on LD_LIBRARY_PATH: the
# stub runs on exactly the versions torch was built and tested with, whatever the base image ships.
# tritonserver then finds them first too: its CUDA runtime becomes torch's, of the same major version,
# which CUDA's minor-version compatibility allows as long as torch's is not older than the image's.
# The ln fails the build if the glob finds nothing (a CPU torch) or two libraries share a name.
# model.py checks cuDNN at load and fails naming both versions if this ever breaks.
RUN pip install --target /opt/deid/site-packages "torch==2.13.0" "numpy==1.26.4" "pydantic==2.14.4" "tqdm==4.70.1" \
 && pip install --target /opt/deid/site-packages --no-deps /src \
 && mkdir -p /opt/deid/torch-libs \
 && ln -s /opt/deid/site-packages/nvidia/*/lib/lib*.so* /opt/deid/torch-libs/ \
 && rm -rf /src
ENV LD_LIBRARY_PATH=/opt/deid/torch-libs${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}
# The model repository is baked in (an immutable image per model release); compose bind-mounts the
# checkout's triton_models/ over it instead.
COPY triton_models /models
WORKDIR /models
# triton-server, the non-root user the NGC image creates (uid 1000).
USER 1000:1000
EXPOSE 8000 8001 8002
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["python3", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/v2/health/ready', timeout=4).status == 200 else 1)"]
ENTRYPOINT ["tritonserver"]
CMD ["--model-repository=/models", "--model-config-name=gpu", "--disable-auto-complete-config", "--strict-readiness=true"]
