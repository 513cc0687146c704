#!/bin/sh
# Runs INSIDE a throwaway build container (see build.sh), whose file system is
# then committed as the numpy layer.  Everything it downloads or unpacks that is
# not NumPy itself is removed before it exits.
#
#   sh -c "$(cat install-numpy.sh)" install-numpy MODE PIN INDEX_URL  < ca-bundle.pem
#
# MODE is "pypi" (PIN, e.g. numpy==2.2.6, from INDEX_URL with pip) or "debian"
# (Debian's python3-numpy: the fallback, a different NumPy version).  Standard
# input is the host's CA bundle, so that TLS works behind an intercepting proxy;
# it never reaches the image.  Exit status 75 means "the index is unreachable
# from this network", so the caller can try another network or the fallback.
set -eu
mode=$1 pin=$2 index=$3
export DEBIAN_FRONTEND=noninteractive

cleanup() {
    rm -rf /tmp/* /tmp/.[!.]* /root/.cache /var/lib/apt/lists/* /var/cache/apt/*.bin \
        /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial /var/log/apt /var/log/dpkg.log
}
trap cleanup EXIT

cat >/tmp/ca.pem
cert=""
if [ -s /tmp/ca.pem ]; then cert=/tmp/ca.pem; fi

reachable() {
    python3 - "$1" "$cert" <<'PY'
import ssl, sys, urllib.request
context = ssl.create_default_context(cafile=sys.argv[2] or None)
urllib.request.urlopen(sys.argv[1], timeout=15, context=context).read(1)
PY
}

# Debian's python3 has no pip; run pip straight from Debian's pip wheel,
# unpacked in /tmp, so that pip itself never lands in the image.
pip_command() {
    if python3 -m pip --version >/dev/null 2>&1; then
        echo "python3 -m pip"
        return
    fi
    apt-get update -qq
    (cd /tmp && apt-get download -qq python3-pip-whl 2>/dev/null && dpkg-deb -x python3-pip-whl_*.deb /tmp/pip-whl)
    echo "python3 $(ls /tmp/pip-whl/usr/share/python-wheels/pip-*.whl)/pip"
}

install_from_pypi() {
    reachable "$index/numpy/" 2>/dev/null || { echo "index $index is unreachable" >&2; exit 75; }
    pip=$(pip_command)
    $pip install --no-cache-dir --break-system-packages --root-user-action=ignore \
        --only-binary=:all: --no-warn-script-location --index-url "$index" \
        ${cert:+--cert "$cert"} "$pin"
    python3 -c "import numpy, sys; sys.exit(numpy.__version__ != sys.argv[1])" "${pin#numpy==}"
}

install_from_debian() {
    apt-get update -qq || exit 75
    apt-get install -y -qq --no-install-recommends python3-numpy >/dev/null
}

case $mode in
    pypi) install_from_pypi ;;
    debian) install_from_debian ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
esac

# The tests inside the wheel are a tenth of its size and never run here.
numpy_dir=$(python3 -c "import numpy, os; print(os.path.dirname(numpy.__file__))")
find "$numpy_dir" -depth -type d -name tests -exec rm -rf {} +
python3 -c "import numpy; print('NUMPY_VERSION=' + numpy.__version__)"
