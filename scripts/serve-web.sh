#!/usr/bin/env bash
# Serves web/dist/ (made by scripts/build-web.sh) on 127.0.0.1 and prints the address to open.
# Usage: scripts/serve-web.sh [PORT]   (default 8080; 0 picks a free one)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f web/dist/index.html ]; then
  echo "serve-web: web/dist is empty; run scripts/build-web.sh first" >&2
  exit 1
fi
exec python3 - "${1:-8080}" <<'PY'
import functools, http.server, sys

class Handler(http.server.SimpleHTTPRequestHandler):
    # Browsers compile WebAssembly as it streams in only when it is served as such.
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def log_message(self, *args):
        pass

handler = functools.partial(Handler, directory="web/dist")
with http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler) as server:
    print(f"spherewalk: open http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
PY
