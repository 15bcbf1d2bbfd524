#!/usr/bin/env bash
# Headless Chromium and its WebDriver for the HTML view tests (tests/test_views.py), plus a CJK
# font so that screenshots of the views show the Chinese text. Debian packages; idempotent.
set -euo pipefail

packages=(chromium chromium-driver fonts-wqy-microhei)
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
fc-list 2>/dev/null | grep -qi "wqy\|cjk" || missing+=(fonts-wqy-microhei)
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-chromium: $(chromium --version 2>/dev/null) and chromedriver already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-chromium: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${packages[@]}" >/dev/null
echo "install-chromium: installed $(chromium --version)"
