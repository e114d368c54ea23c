#!/usr/bin/env bash
# Install code-server (VS Code in the browser, from npm) for the real VS Code test; idempotent.
# code-server's own postinstall would fetch a ripgrep binary from GitHub (no network for that here),
# so its steps run by hand: install with --ignore-scripts, build the native modules from source
# against the local Node headers, and point @vscode/ripgrep at Debian's rg.
# Prints the path of the code-server entry point on its last line.
set -euo pipefail
# code-server 4.100.x is the last line that runs on Node 20 (4.103+ wants Node 22, 4.139+ Node 24).
VERSION=4.100.3
HOME_DIR="${PT2E_LENS_CODE_SERVER_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/pt2e-lens/code-server-$VERSION}"
PKG="$HOME_DIR/node_modules/code-server"
DONE="$HOME_DIR/.installed"
if [ -f "$DONE" ]; then
  echo "$PKG/out/node/entry.js"
  exit 0
fi
say() { echo "pt2e-lens: $*" >&2; }
start=$(date +%s)

need_debs=()
for deb in build-essential libkrb5-dev libxkbfile-dev libsecret-1-dev ripgrep python3; do
  dpkg -s "$deb" >/dev/null 2>&1 || need_debs+=("$deb")
done
if [ ${#need_debs[@]} -gt 0 ]; then
  if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
    say "code-server needs Debian packages: ${need_debs[*]} (apt-get install -y ${need_debs[*]})"
    exit 1
  fi
  say "installing ${need_debs[*]} for code-server"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_debs[@]}" >/dev/null
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" != "20" ]; then
  say "code-server $VERSION needs Node 20; this is Node $(node --version)"
  exit 1
fi

# node-gyp would download Node's headers; the Node package ships them under <prefix>/include/node.
NODEDIR="$(dirname "$(dirname "$(command -v node)")")"
if [ ! -f "$NODEDIR/include/node/node.h" ]; then
  say "no Node headers in $NODEDIR/include/node (needed to build code-server's native modules)"
  exit 1
fi
export npm_config_nodedir="$NODEDIR"

mkdir -p "$HOME_DIR"
cd "$HOME_DIR"
[ -f package.json ] || echo '{"private": true}' >package.json
say "installing code-server $VERSION into $HOME_DIR"
npm install --no-audit --no-fund --ignore-scripts --loglevel=error "code-server@$VERSION" >&2
# argon2 (password hashing) is loaded even with --auth none: build it (its prebuilt download fails, it falls back).
npm rebuild --loglevel=error argon2 >&2

# What code-server's postinstall.sh does, minus the ripgrep download.
cd "$PKG/lib/vscode"
npm install --no-audit --no-fund --omit=dev --ignore-scripts --loglevel=error >&2
for mod in @parcel/watcher @vscode/spdlog @vscode/deviceid kerberos native-watchdog node-pty; do
  if [ -d "node_modules/$mod" ]; then
    say "building $mod"
    # node-pty's post-install runs `npx node-gyp` (a registry package) to write compile_commands.json
    npm_config_yes=true npm rebuild --loglevel=error "$mod" >&2
  fi
done
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
rm -rf node_modules.asar && ln -s node_modules node_modules.asar
(cd bin/remote-cli && ln -sf code-linux.sh code-server)
(cd bin/helpers && ln -sf browser-linux.sh browser.sh)
(cd extensions && npm install --no-audit --no-fund --omit=dev --loglevel=error >&2)

node "$PKG/out/node/entry.js" --version >&2
touch "$DONE"
say "code-server installed in $(($(date +%s) - start)) s"
echo "$PKG/out/node/entry.js"
