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
RUN pip install --target /opt/deid/site-packages "torch==2.13.0" "numpy==1.26.4" "pydantic==2.14.4" "tqdm==4.70.1" \
 && pip install --target /opt/deid/site-packages --no-deps /src \
 && rm -rf /src
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
