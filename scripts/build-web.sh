#!/usr/bin/env bash
# Builds the browser demo into web/dist/: index.html, spherewalk.js (wasm-bindgen's glue) and
# spherewalk_bg.wasm. Serve that folder (scripts/serve-web.sh) and open the address it prints.
#
# Needs the wasm32-unknown-unknown target (added with rustup when missing) and wasm-bindgen-cli
# at exactly the version of the wasm-bindgen crate in Cargo.lock (installed with cargo when
# missing). wasm-opt (binaryen 117 or later, e.g. `npm install -g binaryen`) shrinks the module
# further when installed.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

target=wasm32-unknown-unknown
profile=web
out=web/dist

if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx "$target"; then
  rustup target add "$target"
fi

# wasm-bindgen's CLI and the crate must agree to the patch version.
version=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)
if [ -z "$version" ]; then
  echo "build-web: no wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
  echo "build-web: installing wasm-bindgen-cli $version"
  # Only the wasm-bindgen binary is used: no TLS stack for its test runner's downloads.
  if ! cargo install --locked --no-default-features wasm-bindgen-cli --version "$version"; then
    # A registry that lacks one of the versions the CLI's own lockfile names (seen: a
    # mirror without webpki-roots 1.0.11) leaves only a fresh resolution.
    echo "build-web: the locked install failed; installing with a fresh resolution" >&2
    cargo install --no-default-features wasm-bindgen-cli --version "$version"
  fi
fi

cargo build -p spherewalk-demo --target "$target" --profile "$profile" --features gamepad
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name spherewalk \
  "target/$target/$profile/spherewalk-demo.wasm"

wasm="$out/spherewalk_bg.wasm"
# wasm-opt shrinks the module by about a sixth more. Binaryen before 117 mistypes the table
# of JavaScript references wasm-bindgen sets up (Debian 12's 108 does: the page then fails at
# load with "WebAssembly.Table.set(): Argument 1 is invalid"), so an older one is passed over.
# `npm install -g binaryen` gives a current one.
wasm_opt=$(command -v wasm-opt || true)
wasm_opt_version=$([ -n "$wasm_opt" ] && "$wasm_opt" --version 2>/dev/null | sed -n 's/^wasm-opt version \([0-9]*\).*/\1/p' || true)
if [ -z "$wasm_opt" ]; then
  echo "build-web: wasm-opt not installed (npm install -g binaryen): the module is as rustc made it"
elif [ "${wasm_opt_version:-0}" -lt 117 ]; then
  echo "build-web: $wasm_opt is binaryen ${wasm_opt_version:-?}, older than 117, which breaks wasm-bindgen's modules: not used"
elif "$wasm_opt" -Os "$wasm" -o "$wasm.opt"; then
  mv "$wasm.opt" "$wasm"
  echo "build-web: shrunk with $wasm_opt (binaryen $wasm_opt_version)"
else
  rm -f "$wasm.opt"
  echo "build-web: wasm-opt failed; keeping the module as rustc made it" >&2
fi
cp web/index.html "$out/"

raw=$(wc -c < "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
echo "build-web: $out ready; spherewalk_bg.wasm is $raw bytes ($((raw / 1024)) KiB), $gz gzipped ($((gz / 1024)) KiB)"
