#!/bin/sh
# Runs INSIDE a throwaway build container (see build.sh) whose file system is then
# committed as an image layer.  /in holds the host's CA bundle (TLS is intercepted
# on some networks) and pyproject.toml; neither stays in the image.
#
#   sh -c "$(cat install-deps.sh)" install-deps app|data INDEX_URL
#
#   app:  the project's Python dependencies from PyPI, pinned as in pyproject.toml
#         (NumPy is already in the base image, at the same pin), and PostgreSQL's client programs
#   data: Debian's PostgreSQL and Redis servers
set -eu
kind=$1 index=$2
export DEBIAN_FRONTEND=noninteractive
cleanup() {
    rm -rf /tmp/* /root/.cache /var/lib/apt/lists/* /var/cache/apt/*.bin \
        /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial /var/log/apt /var/log/dpkg.log
}
trap cleanup EXIT
cert=""
[ -s /in/ca.pem ] && cert=/in/ca.pem

apt-get update -qq
case $kind in
app)
    # pip runs from Debian's pip wheel, unpacked in /tmp: pip itself never lands in the image.
    (cd /tmp && apt-get download -qq python3-pip-whl && dpkg-deb -x python3-pip-whl_*.deb /tmp/pip-whl)
    pip="python3 $(ls /tmp/pip-whl/usr/share/python-wheels/pip-*.whl)/pip"
    python3 - >/tmp/requirements.txt <<'PY'
import tomllib
print("\n".join(tomllib.load(open("/in/pyproject.toml", "rb"))["project"]["dependencies"]))
PY
    $pip install -q --no-cache-dir --break-system-packages --root-user-action=ignore \
        --no-warn-script-location --index-url "$index" ${cert:+--cert "$cert"} -r /tmp/requirements.txt
    python3 -c "import django, celery, gunicorn, uvicorn_worker, uvloop, httptools, psycopg, docker, numpy; print('deps ok, numpy', numpy.__version__)"
    # pg_dump, pg_restore and psql for manage.py backup and restore (docs/operators/backups.md): Debian's, the
    # same major version as the data image's server, which a client must match or exceed.
    apt-get install -y -qq --no-install-recommends postgresql-client >/dev/null
    pg_dump --version
    useradd --system --uid 10001 --home-dir /var/lib/judge --create-home judge
    ;;
data)
    apt-get install -y -qq --no-install-recommends postgresql redis-server >/dev/null
    # Data lives in volumes; the cluster is made at first start (entrypoint-postgres.sh).
    # These directories are copied, with their owners, into fresh named volumes.
    rm -rf /var/lib/postgresql/*/main /etc/postgresql/*/main
    install -d -o postgres -g postgres /var/lib/postgresql/data /run/postgresql
    install -d -o redis -g redis /var/lib/redis
    install -m 0755 /in/entrypoint-postgres.sh /usr/local/bin/entrypoint-postgres
    ;;
*)
    echo "unknown kind $kind" >&2
    exit 2
    ;;
esac
