#!/usr/bin/env bash
# Services the test suite needs, from Debian's packages: PostgreSQL (started on localhost, with a
# test role and database) and headless Chromium with its WebDriver (the review page's browser
# test). Idempotent: installs only what is missing, starts only what is down. Run as root (or with
# sudo). .ci/run calls it before `make test`.
#
# The tests read the database URL from YILI_TEST_PG_URL, default
#   postgresql://yili:yili@127.0.0.1:<port>/yili_test
# This script prints the export line; `eval "$(scripts/ci-services.sh --env)"` sets it.
set -euo pipefail

PG_USER="${YILI_TEST_PG_USER:-yili}"
PG_PASSWORD="${YILI_TEST_PG_PASSWORD:-yili}"
PG_DB="${YILI_TEST_PG_DB:-yili_test}"
quiet_env=0
[ "${1:-}" = "--env" ] && quiet_env=1
log() { if [ "$quiet_env" -eq 1 ]; then echo "ci-services: $*" >&2; else echo "ci-services: $*"; fi; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ci-services: need root (or sudo) to install and start services" >&2; exit 1
  fi
fi

# -- packages ----------------------------------------------------------------------------------
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
fc-list 2>/dev/null | grep -qi "wqy\|cjk" || missing+=(fonts-wqy-microhei)
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# -- PostgreSQL on localhost --------------------------------------------------------------------
version="$(ls /usr/lib/postgresql | sort -V | tail -1)"
if ! pg_lsclusters -h 2>/dev/null | awk -v v="$version" '$1==v && $2=="main"' | grep -q .; then
  log "creating cluster $version/main"
  $SUDO pg_createcluster "$version" main >/dev/null
fi
port="$(pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $3}')"
status="$(pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $4}')"
if [ "$status" != "online" ]; then
  log "starting PostgreSQL $version on 127.0.0.1:$port"
  $SUDO pg_ctlcluster "$version" main start -- -o "-c listen_addresses=localhost" >/dev/null \
    || $SUDO pg_ctlcluster "$version" main start >/dev/null
fi
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 1
done
pg_isready -q -h 127.0.0.1 -p "$port" || { echo "ci-services: PostgreSQL did not start on 127.0.0.1:$port" >&2; exit 1; }

psql_admin() { $SUDO runuser -u postgres -- psql -p "$port" -v ON_ERROR_STOP=1 -qtAc "$1"; }
if [ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname='$PG_USER'")" != "1" ]; then
  psql_admin "CREATE ROLE $PG_USER LOGIN PASSWORD '$PG_PASSWORD'" >/dev/null
fi
if [ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname='$PG_DB'")" != "1" ]; then
  psql_admin "CREATE DATABASE $PG_DB OWNER $PG_USER" >/dev/null
fi

url="postgresql://$PG_USER:$PG_PASSWORD@127.0.0.1:$port/$PG_DB"
log "PostgreSQL ready: $PG_DB on 127.0.0.1:$port; $(chromium --version 2>/dev/null | head -1); $(chromedriver --version | cut -d' ' -f1-2)"
echo "export YILI_TEST_PG_URL=$url"
