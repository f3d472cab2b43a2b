#!/usr/bin/env bash
# Installs Debian's `chromium` package for the browser tests (tests/report/test_report_browser.py).
# Idempotent: does nothing when /usr/bin/chromium already exists. Needs root (CI runs as root);
# otherwise it uses sudo when there is one. Debian's package only: no browser download of its own.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "install-browser: /usr/bin/chromium is already installed ($(/usr/bin/chromium --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "install-browser: must run as root (or with sudo) to install the chromium package" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
${as_root[@]+"${as_root[@]}"} apt-get update -q
${as_root[@]+"${as_root[@]}"} apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core
/usr/bin/chromium --version
