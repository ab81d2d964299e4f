#!/usr/bin/env bash
# Builds the browser demo into web/dist/: index.html, spherewalk.js (wasm-bindgen's glue) and
# spherewalk_bg.wasm. Serve that folder (scripts/serve-web.sh) and open the address it prints.
#
# Needs the wasm32-unknown-unknown target (added with rustup when missing) and wasm-bindgen-cli
# at exactly the version of the wasm-bindgen crate in Cargo.lock (installed with cargo when
# missing). wasm-opt (Debian/npm package binaryen) shrinks the module further when installed.
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
if command -v wasm-opt >/dev/null 2>&1; then
  # The features rustc's wasm32 target enables by default; wasm-opt keeps to them.
  if wasm-opt -Os --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
      --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
      "$wasm" -o "$wasm.opt"; then
    mv "$wasm.opt" "$wasm"
  else
    rm -f "$wasm.opt"
    echo "build-web: wasm-opt failed; keeping the module as rustc made it" >&2
  fi
else
  echo "build-web: wasm-opt not installed (apt-get install binaryen): the module is not shrunk further"
fi
cp web/index.html "$out/"

raw=$(wc -c < "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
echo "build-web: $out ready; spherewalk_bg.wasm is $raw bytes ($((raw / 1024)) KiB), $gz gzipped ($((gz / 1024)) KiB)"
