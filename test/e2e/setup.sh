#!/usr/bin/env bash
# Idempotent installer for the Marker Research end-to-end harness (test/e2e/run.mjs).
#
# Installs, only when missing:
#   - Debian packages: chromium (the browser playwright-core drives), libkrb5-dev
#     (code-server's native 'kerberos' module), ripgrep (seeds @vscode/ripgrep),
#     pkg-config make g++ python3 (node-gyp builds), curl, and a small CJK font
#     (fonts-wqy-microhei) so Chinese corpus text is legible in screenshots.
#   - npm tools, into a cache folder (default ~/.cache/marker-research-e2e):
#     code-server (a real VS Code served on loopback), playwright-core, @vscode/vsce.
#
# The cached npm install is trusted only when the code-server/vsce binaries exist
# AND the marker file written after a successful install matches the wanted
# versions, so an interrupted or outdated install is redone from scratch.
#
# Prints the cache folder (absolute path) as the last line of stdout.
set -euo pipefail

CS_VERSION=4.100.3          # newest code-server whose install accepts Node 20 (VS Code 1.100.3)
PLAYWRIGHT_VERSION=1.65.1
VSCE_VERSION=3.9.2
CACHE=${MARKER_RESEARCH_E2E_CACHE:-${HOME:-/root}/.cache/marker-research-e2e}
MARKER_TEXT="code-server@$CS_VERSION playwright-core@$PLAYWRIGHT_VERSION @vscode/vsce@$VSCE_VERSION node-abi=$(node -p process.versions.modules)"

log() { echo "[e2e setup] $*" >&2; }

# one setup at a time per cache (two `npm test` at once must not install over each other)
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
if command -v flock >/dev/null; then
  flock -w 1800 9 || { log "timed out waiting for another setup.sh holding $CACHE/.lock"; exit 1; }
fi

# ---------------------------------------------------------------- 1. apt packages
need=()
for p in chromium libkrb5-dev ripgrep pkg-config make g++ python3 curl fonts-wqy-microhei; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if ((${#need[@]})); then
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    log "missing Debian packages: ${need[*]} (and not root, no sudo): install them first"; exit 1
  fi
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  log "installing Debian packages: ${need[*]}"
  apt_log=$(mktemp "${TMPDIR:-/tmp}/marker-research-e2e-apt.XXXXXX")
  if ! { $SUDO timeout 600 apt-get update -qq &&
         $SUDO env DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$apt_log" 2>&1; then
    tail -n 30 "$apt_log" >&2; log "apt-get failed (full log: $apt_log)"; exit 1
  fi
  rm -f "$apt_log"
fi
[ -x /usr/bin/chromium ] || { log "/usr/bin/chromium missing after apt install"; exit 1; }

# ---------------------------------------------------------------- 2. npm tools (cached)
MARKER=$CACHE/.install-complete
installed_ok() {
  [ -x "$CACHE/node_modules/.bin/code-server" ] && [ -x "$CACHE/node_modules/.bin/vsce" ] &&
    [ -f "$CACHE/node_modules/playwright-core/package.json" ] &&
    [ -f "$MARKER" ] && [ "$(cat "$MARKER")" = "$MARKER_TEXT" ]
}

if ! installed_ok; then
  log "installing code-server@$CS_VERSION, playwright-core@$PLAYWRIGHT_VERSION, @vscode/vsce@$VSCE_VERSION into $CACHE"
  # start clean: a half-finished node_modules (interrupted install) is not trusted
  rm -rf "$CACHE/node_modules" "$CACHE/package.json" "$CACHE/package-lock.json" "$CACHE/tmp" "$MARKER"
  mkdir -p "$CACHE/tmp"
  cd "$CACHE"
  echo '{ "name": "marker-research-e2e-tools", "private": true }' > package.json

  # @vscode/ripgrep's postinstall downloads rg from GitHub unless it finds it in its
  # cache folder ($TMPDIR/vscode-ripgrep-cache-<version>): seed that with Debian's rg.
  cs_tgz=$(timeout 300 npm pack --silent --pack-destination "$CACHE/tmp" "code-server@$CS_VERSION" | tail -n1)
  rg_ver=$(tar -xzOf "$CACHE/tmp/$cs_tgz" package/lib/vscode/npm-shrinkwrap.json |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).packages["node_modules/@vscode/ripgrep"].version))')
  rg_tgz=$(timeout 300 npm pack --silent --pack-destination "$CACHE/tmp" "@vscode/ripgrep@$rg_ver" | tail -n1)
  rg_tag=$(tar -xzOf "$CACHE/tmp/$rg_tgz" package/lib/postinstall.js | sed -n "s/^const VERSION = '\(.*\)';.*/\1/p")
  [ -n "$rg_ver" ] && [ -n "$rg_tag" ] || { log "could not read the @vscode/ripgrep version from code-server"; exit 1; }
  case "$(uname -m)" in
    x86_64) rg_target=x86_64-unknown-linux-musl ;;
    aarch64) rg_target=aarch64-unknown-linux-musl ;;
    *) log "unsupported architecture $(uname -m)"; exit 1 ;;
  esac
  export TMPDIR=$CACHE/tmp
  rg_cache=$TMPDIR/vscode-ripgrep-cache-$rg_ver
  mkdir -p "$rg_cache"
  tar -czf "$rg_cache/ripgrep-$rg_tag-$rg_target.tar.gz" -C "$(dirname "$(command -v rg)")" rg
  rm -f "$CACHE/tmp/$cs_tgz" "$CACHE/tmp/$rg_tgz"

  # native modules (node-pty, kerberos, spdlog, …) are built by node-gyp, which downloads Node's
  # headers unless told where they are: this machine kind's ~/.npmrc sets nodedir; elsewhere
  # use the headers next to the node binary when they are there.
  if [ -z "$(npm config get nodedir 2>/dev/null | grep -v '^undefined$' || true)" ]; then
    node_prefix=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
    [ -f "$node_prefix/include/node/node.h" ] && export npm_config_nodedir=$node_prefix
  fi

  # unsafe_perm: code-server's postinstall refuses root without it;
  # yes: node-pty's postinstall runs `npx node-gyp` and must not prompt.
  npm_config_unsafe_perm=true npm_config_yes=true \
    timeout 900 npm install --no-fund --no-audit --no-update-notifier --loglevel=error \
      "code-server@$CS_VERSION" "playwright-core@$PLAYWRIGHT_VERSION" "@vscode/vsce@$VSCE_VERSION" </dev/null >&2

  [ -x "$CACHE/node_modules/.bin/code-server" ] || { log "code-server binary missing after npm install"; exit 1; }
  [ -x "$CACHE/node_modules/.bin/vsce" ] || { log "vsce binary missing after npm install"; exit 1; }
  # (XDG_* so that this smoke test leaves no config.yaml with a password in ~/.config)
  XDG_CONFIG_HOME=$CACHE/tmp/xdg XDG_DATA_HOME=$CACHE/tmp/xdg/data XDG_CACHE_HOME=$CACHE/tmp/xdg/cache \
    timeout 60 "$CACHE/node_modules/.bin/code-server" --version >/dev/null </dev/null ||
    { log "installed code-server does not run"; exit 1; }
  rm -rf "$CACHE/tmp"
  printf '%s' "$MARKER_TEXT" > "$MARKER"
  log "npm tools installed"
fi

echo "$CACHE"
