# Browser tests drive Debian's chromium through Playwright's Python package
# (never `playwright install`: no browser downloads). Sourced by bin/test.
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then
        export DEBIAN_FRONTEND=noninteractive
        if [ -z "${APT_UPDATED:-}" ]; then apt-get update -qq; APT_UPDATED=1; fi
        apt-get install -y -qq --no-install-recommends chromium >/dev/null \
            || echo "browser.sh: could not install chromium" >&2
    fi
fi
if [ ! -x /usr/bin/chromium ]; then
    if [ "${CI:-}" = true ]; then
        echo "browser.sh: /usr/bin/chromium is missing and could not be installed; the browser tests need it" >&2
        exit 1
    fi
    echo "browser.sh: /usr/bin/chromium is missing (run as root to install it); browser tests will be skipped" >&2
fi
export BROWSER_EXECUTABLE=${BROWSER_EXECUTABLE:-/usr/bin/chromium}
