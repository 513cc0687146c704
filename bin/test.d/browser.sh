# Browser tests drive Debian's chromium through Playwright's Python package
# (never `playwright install`: no browser downloads).  Sourced by bin/test, which
# calls browser_start before it makes the Python environment and browser_finish after.
BROWSER_SETUP_PID=
browser_start() {
    if { [ ! -x /usr/bin/chromium ] || [ ! -e /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ]; } && [ "$(id -u)" = 0 ]; then
        mkdir -p var
        # DejaVu Sans Mono: the editor's first font, whose underscore tests/browser/test_underscore_glyph.py measures
        ( bin/apt-install chromium fonts-dejavu-core ) >var/browser-setup.log 2>&1 &
        BROWSER_SETUP_PID=$!
    fi
}
browser_finish() {
    if [ -n "$BROWSER_SETUP_PID" ] && ! wait "$BROWSER_SETUP_PID"; then
        cat var/browser-setup.log >&2
        echo "browser.sh: could not install chromium" >&2
    fi
    if [ ! -x /usr/bin/chromium ]; then
        if [ "${CI:-}" = true ]; then
            echo "browser.sh: /usr/bin/chromium is missing and could not be installed; the browser tests need it" >&2
            exit 1
        fi
        echo "browser.sh: /usr/bin/chromium is missing (run as root to install it); browser tests will be skipped" >&2
    fi
    export BROWSER_EXECUTABLE=${BROWSER_EXECUTABLE:-/usr/bin/chromium}
}
