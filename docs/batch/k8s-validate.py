#!/usr/bin/env python3
"""Checks the Kubernetes Jobs of docs/batch.md without a cluster (check.sh runs it).

Each file must parse as YAML and hold one batch/v1 Job with the fields Kubernetes requires of
one (names, a pod template with restartPolicy Never or OnFailure, containers with an image,
mounts of declared volumes, quoted env values, well-formed quantities); a Job whose container
reads SHARDS must be an indexed Job with as many completions; all the files must use the same
image and the same claim for the volume they share. Not checked: what only an API server says
(kubectl apply --dry-run=server: defaults, admission, quotas), the image, the claim.

    python3 docs/batch/k8s-validate.py docs/batch/k8s-solve-job.yaml docs/batch/k8s-merge-job.yaml
"""

import re
import sys

import yaml

DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
QUANTITY = re.compile(r"^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$")


def check_job(job, errors):
    """Appends to errors what is wrong with one Job; returns (images, claims) it uses."""

    def need(ok, message):
        if not ok:
            errors.append(message)

    need(job.get("apiVersion") == "batch/v1", f"apiVersion {job.get('apiVersion')!r}, not batch/v1")
    need(job.get("kind") == "Job", f"kind {job.get('kind')!r}, not Job")
    name = (job.get("metadata") or {}).get("name")
    need(isinstance(name, str) and DNS_LABEL.match(name), f"metadata.name {name!r} is not a DNS label")
    spec = job.get("spec") or {}
    for field in ("completions", "parallelism", "backoffLimit"):
        value = spec.get(field)
        need(value is None or (isinstance(value, int) and value >= 0), f"spec.{field} {value!r} is not a count")
    mode = spec.get("completionMode")
    need(mode in (None, "NonIndexed", "Indexed"), f"spec.completionMode {mode!r}")
    pod = (spec.get("template") or {}).get("spec")
    if not isinstance(pod, dict):
        errors.append("no spec.template.spec")
        return set(), set()
    need(
        pod.get("restartPolicy") in ("Never", "OnFailure"),
        f"restartPolicy {pod.get('restartPolicy')!r}: a Job's pods need Never or OnFailure",
    )
    volumes = {}
    for volume in pod.get("volumes") or []:
        need(isinstance(volume.get("name"), str), f"a volume without a name: {volume}")
        volumes[volume.get("name")] = volume
    claims = set()
    for volume in volumes.values():
        if "persistentVolumeClaim" in volume:
            claim = (volume["persistentVolumeClaim"] or {}).get("claimName")
            need(isinstance(claim, str) and claim, f"volume {volume['name']}: no claimName")
            claims.add(claim)
    containers = pod.get("containers")
    need(isinstance(containers, list) and containers, "no containers")
    images = set()
    for container in containers or []:
        cname = container.get("name")
        need(isinstance(cname, str) and DNS_LABEL.match(cname), f"container name {cname!r}")
        image = container.get("image")
        need(isinstance(image, str) and image, f"container {cname}: no image")
        images.add(image)
        for field in ("command", "args"):
            value = container.get(field, [])
            need(
                isinstance(value, list) and all(isinstance(v, str) for v in value),
                f"container {cname}: {field} is not a list of strings",
            )
        env = {}
        for variable in container.get("env") or []:
            value = variable.get("value")
            need(isinstance(value, str), f"container {cname}: env {variable.get('name')} {value!r} is not a string")
            env[variable.get("name")] = value
        for mount in container.get("volumeMounts") or []:
            need(mount.get("name") in volumes, f"container {cname}: mounts undeclared volume {mount.get('name')!r}")
            path = mount.get("mountPath")
            need(isinstance(path, str) and path.startswith("/"), f"container {cname}: mountPath {path!r}")
        resources = container.get("resources") or {}
        for kind in ("requests", "limits"):
            for resource, quantity in (resources.get(kind) or {}).items():
                need(
                    isinstance(quantity, str) and QUANTITY.match(quantity),
                    f"container {cname}: {kind}.{resource} {quantity!r} is not a quoted quantity",
                )
        if "SHARDS" in env:
            need(mode == "Indexed", f"container {cname} reads SHARDS, but the Job is not Indexed")
            need(
                env["SHARDS"] == str(spec.get("completions")),
                f"SHARDS {env['SHARDS']} and completions {spec.get('completions')} differ",
            )
    return images, claims


def main(paths):
    failed = False
    images, claims = set(), set()
    for path in paths:
        errors = []
        with open(path, encoding="utf-8") as file:
            try:
                documents = [d for d in yaml.safe_load_all(file) if d is not None]
            except yaml.YAMLError as error:
                documents, errors = [], [f"not YAML: {error}"]
        if not errors and (len(documents) != 1 or not isinstance(documents[0], dict)):
            errors.append(f"{len(documents)} documents, not one Job")
        if not errors:
            used_images, used_claims = check_job(documents[0], errors)
            images |= used_images
            claims |= used_claims
        for error in errors:
            print(f"k8s-validate: {path}: {error}", file=sys.stderr)
        failed |= bool(errors)
    if len(images) > 1:
        print(f"k8s-validate: the Jobs use different images: {sorted(images)}", file=sys.stderr)
        failed = True
    if len(claims) > 1:
        print(f"k8s-validate: the Jobs use different claims: {sorted(claims)}", file=sys.stderr)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
