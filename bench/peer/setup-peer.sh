#!/usr/bin/env bash
# Sets up the peer gateway the side-by-side bench measures ours against: fazer-ai/baileys-api (MIT), fetched from its
# public repository at the pinned commit into PEER_DIR, its dependencies installed with Bun (which the npm package
# `bun` brings), and pointed at our platform sandbox when it runs with SANDBOX_URL (sandbox-hook.ts). Nothing of the
# peer is kept in this repository. Needs git, npm and, to run it, Debian's redis-server (its store).
#
#   bench/peer/setup-peer.sh        then: bench/peer/run-all.sh peer   (README.md beside this script)
#
# Env: PEER_REPO, PEER_COMMIT (the pinned ones below), PEER_DIR (${TMPDIR:-/tmp}/peer-baileys-api),
#      BUN_DIR (${TMPDIR:-/tmp}/peer-bun, where npm installs Bun), BUN_VERSION (1.4.5, the version measured)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PEER_REPO="${PEER_REPO:-https://github.com/fazer-ai/baileys-api.git}"
PEER_COMMIT="${PEER_COMMIT:-c40c39d1810449487ddddbaf8b673b93d75d4b42}" # 2026-07-05, the commit every figure measured
PEER_DIR="${PEER_DIR:-${TMPDIR:-/tmp}/peer-baileys-api}"
BUN_DIR="${BUN_DIR:-${TMPDIR:-/tmp}/peer-bun}"
BUN_VERSION="${BUN_VERSION:-1.4.5}"

# 1. the pinned commit, and nothing else of its history
rm -rf "$PEER_DIR"
git init -q "$PEER_DIR"
git -C "$PEER_DIR" fetch -q --depth 1 "$PEER_REPO" "$PEER_COMMIT"
git -C "$PEER_DIR" checkout -q FETCH_HEAD
echo "$PEER_COMMIT" > "$PEER_DIR/.peer-commit"

# 2. what its package.json asks that cannot be installed today: @thi.ng/bitstream 2.4.19 has no tarball on the
#    registry (2.4.55 is the same API), and most devDependencies are tools the bench does not need
node - "$PEER_DIR/package.json" <<'JS'
const fs = require('node:fs')
const file = process.argv[2]
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'))
pkg.overrides = { ...(pkg.overrides ?? {}), '@thi.ng/bitstream': '2.4.55' }
const keep = new Set(['bun-types', 'typescript'])
pkg.devDependencies = Object.fromEntries(Object.entries(pkg.devDependencies ?? {}).filter(([name]) => keep.has(name)))
fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`)
JS

# 3. Bun from npm; the peer's dependencies with Bun, which also applies the peer's own patch of Baileys
#    (Bun's patchedDependencies, which npm would not apply)
npm install --prefix "$BUN_DIR" --no-audit --no-fund --no-save "bun@$BUN_VERSION"
BUN="$BUN_DIR/node_modules/.bin/bun"
echo "bun $("$BUN" --version)"
(cd "$PEER_DIR" && "$BUN" install)

# 4. SANDBOX_URL → the sandbox's socket, root key and CA instead of the platform's
(cd "$ROOT" && npx tsx bench/peer/sandbox-hook.ts "$PEER_DIR")
echo "ready: $PEER_DIR (Bun: $BUN)"
