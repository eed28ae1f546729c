#!/usr/bin/env python3
"""Compiles every schema this project emits for `Dialect::Xgrammar` and `Dialect::LlamaCpp` with
the engines themselves, and matches the instances written beside each schema (opt-in, not run in
CI; `scripts/engines-compile.sh` sets it up).

Input: the JSON Lines written by `cargo run -p schema-crosscheck --example engine_schemas`.

- xgrammar (PyPI `xgrammar`): `Grammar.from_json_schema` (its C++ JSON Schema converter, with the
  defaults vLLM and SGLang use: any whitespace, strict mode), compiled by `GrammarCompiler`, and a
  `GrammarMatcher` per instance (`accept_string`, then `is_terminated`). The package's
  `__init__` imports torch and transformers for its token-mask helpers; compiling a schema and
  matching a string use only the C++ core, so the package's modules are loaded without running
  that `__init__` (no torch, no CUDA).
- llama.cpp through `llama-cpp-python`: `json_schema_to_gbnf` (the package's Python port of
  llama.cpp's converter, which lags the C++ one that llama-server uses), the grammar parsed by
  llama.cpp's own parser (`llama_sampler_init_grammar` with the vocabulary of a GGUF model), and
  each instance fed token by token through the grammar sampler: a token the grammar forbids is
  masked to -inf; at the end an end-of-generation token must be allowed. llama.cpp's converter
  generates the required properties first: an instance it rejects is tried again in that order.

Prints, per engine, schemas compiled / total, instances accepted / total and, as a control,
invalid instances (a required property left out) rejected / total, then each failure.
Exit status 0 (it reports; it does not judge).
"""

import argparse
import ctypes
import json
import math
import pathlib
import sys
import types


def load_xgrammar(site_packages):
    """The xgrammar C++ core, without the package's torch-importing `__init__`."""
    root = pathlib.Path(site_packages) / "xgrammar"
    if not root.is_dir():
        raise ImportError(f"no xgrammar package in {site_packages}")
    if str(site_packages) not in sys.path:
        sys.path.append(str(site_packages))
    pkg = types.ModuleType("xgrammar")
    pkg.__path__ = [str(root)]
    sys.modules["xgrammar"] = pkg
    from xgrammar import load_binding  # noqa: F401  (loads libxgrammar_bindings)
    from xgrammar.base import _core

    return _core


class Xgrammar:
    name = "xgrammar"

    def __init__(self, core):
        self.core = core
        # An empty vocabulary: the compiled grammar then matches strings, not tokens.
        info = core.TokenizerInfo([], 0, None, None, False)
        self.compiler = core.GrammarCompiler(info, 1, False, -1)

    def compile(self, schema):
        grammar = self.core.Grammar.from_json_schema(
            json.dumps(schema), True, None, None, True, None, False, False
        )
        return self.compiler.compile_grammar_ebnf(grammar)

    def accepts(self, compiled, text):
        m = self.core.GrammarMatcher(compiled, None, True, -1, None)
        return bool(m.accept_string(text, False)) and bool(m.is_terminated())


def _resolve(root, schema):
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if not isinstance(ref, str) or not ref.startswith("#"):
        return schema
    node = root
    for part in [p for p in ref[1:].split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node.get(part, {})
    return _resolve(root, node)


def _fits(schema, value):
    """Whether an object branch of a union can be the one `value` took (keys and consts)."""
    props = schema.get("properties", {})
    is_object = schema.get("type") == "object" or "properties" in schema
    if not is_object or not isinstance(value, dict) or not isinstance(props, dict):
        return False
    if schema.get("additionalProperties") is False and any(k not in props for k in value):
        return False
    if any(k not in value for k in schema.get("required", [])):
        return False
    return all(
        "const" not in p or value.get(k) == p["const"]
        for k, p in props.items()
        if isinstance(p, dict) and k in value
    )


def required_first(root, schema, value):
    """`value` with every object's keys in the order llama.cpp's converter generates them: the
    required properties first, then the optional ones, each in schema order."""
    schema = _resolve(root, schema)
    if not isinstance(schema, dict):
        return value
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for b in branches:
                b = _resolve(root, b)
                if isinstance(value, dict) and _fits(b, value):
                    return required_first(root, b, value)
            return value
    if isinstance(value, dict):
        props = schema.get("properties", {}) if isinstance(schema.get("properties"), dict) else {}
        required = [k for k in props if k in schema.get("required", [])]
        order = required + [k for k in props if k not in required] + [k for k in value if k not in props]
        extra = schema.get("additionalProperties")
        out = {}
        for k in order:
            if k in value:
                sub = props.get(k, extra if isinstance(extra, dict) else {})
                out[k] = required_first(root, sub, value[k])
        return out
    if isinstance(value, list):
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        prefix = schema.get("prefixItems") or []
        return [
            required_first(root, prefix[i] if i < len(prefix) else items, v)
            for i, v in enumerate(value)
        ]
    return value


class LlamaCpp:
    name = "llama-cpp-python"

    def __init__(self, model_path):
        import llama_cpp
        from llama_cpp.llama_grammar import json_schema_to_gbnf

        self.ll = llama_cpp
        self.to_gbnf = json_schema_to_gbnf
        # Silence llama.cpp's log (grammar parse errors are reported by the NULL sampler).
        self._log = llama_cpp.llama_log_callback(lambda level, text, data: None)
        llama_cpp.llama_log_set(self._log, ctypes.c_void_p(0))
        llama_cpp.llama_backend_init()
        params = llama_cpp.llama_model_default_params()
        params.vocab_only = True
        self.model = llama_cpp.llama_model_load_from_file(str(model_path).encode(), params)
        if not self.model:
            raise RuntimeError(f"cannot load {model_path}")
        self.vocab = llama_cpp.llama_model_get_vocab(self.model)
        self.eos = llama_cpp.llama_vocab_eos(self.vocab)

    def compile(self, schema):
        gbnf = self.to_gbnf(json.dumps(schema))
        smpl = self.ll.llama_sampler_init_grammar(self.vocab, gbnf.encode(), b"root")
        if not smpl:
            raise RuntimeError("llama.cpp's grammar parser rejected the converted grammar")
        self.ll.llama_sampler_free(smpl)
        return (gbnf, schema)

    @staticmethod
    def reorder(compiled, text):
        """The instance as llama.cpp's converter orders properties: required ones first."""
        schema = compiled[1]
        value = required_first(schema, schema, json.loads(text))
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

    def _allowed(self, smpl, token):
        cell = self.ll.llama_token_data(token, 0.0, 0.0)
        arr = self.ll.llama_token_data_array(ctypes.pointer(cell), 1, -1, False)
        self.ll.llama_sampler_apply(smpl, ctypes.byref(arr))
        return not math.isinf(cell.logit)

    def accepts(self, compiled, text):
        gbnf = compiled[0]
        data = text.encode()
        buf = (self.ll.llama_token * (len(data) + 8))()
        n = self.ll.llama_tokenize(self.vocab, data, len(data), buf, len(buf), False, False)
        if n < 0:
            raise RuntimeError("tokenization failed")
        smpl = self.ll.llama_sampler_init_grammar(self.vocab, gbnf.encode(), b"root")
        try:
            for tok in buf[:n]:
                if not self._allowed(smpl, tok):
                    return False
                self.ll.llama_sampler_accept(smpl, tok)
            return self._allowed(smpl, self.eos)
        finally:
            self.ll.llama_sampler_free(smpl)


def run(engine, records):
    compiled = total = acc = inst = 0
    bad = bad_rejected = 0
    reordered = 0
    failures = []
    for r in records:
        total += 1
        where = f"{r['source']}/{r['name']}"
        try:
            c = engine.compile(r["schema"])
        except Exception as e:  # the engine's own error, reported as is
            failures.append(f"{where}: does not compile: {str(e).splitlines()[0][:300]}")
            continue
        compiled += 1
        for text in r.get("instances", []):
            inst += 1
            try:
                ok = engine.accepts(c, text)
                if not ok and hasattr(engine, "reorder"):
                    # The engine's own property order (llama.cpp: required first).
                    ok = engine.accepts(c, engine.reorder(c, text))
                    reordered += ok
            except Exception as e:
                ok = False
                text = f"{text} ({e})"
            if ok:
                acc += 1
            else:
                failures.append(f"{where}: rejects {text[:300]}")
        # The control: instances without a required property must be rejected.
        for text in r.get("invalid", []):
            bad += 1
            try:
                ok = engine.accepts(c, text)
            except Exception:
                ok = False
            if ok:
                failures.append(f"{where}: accepts the invalid {text[:300]}")
            else:
                bad_rejected += 1
    print(
        f"== {engine.name}: {compiled}/{total} schemas compile, {acc}/{inst} instances accepted, "
        f"{bad_rejected}/{bad} invalid ones (a required property left out) rejected"
    )
    if reordered:
        print(f"   ({reordered} of the accepted only with the required properties first)")
    by_source = {}
    for r in records:
        by_source[r["source"]] = by_source.get(r["source"], 0) + 1
    print("   schemas by source: " + ", ".join(f"{k} {v}" for k, v in sorted(by_source.items())))
    for f in failures:
        print("   " + f)
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("jsonl", help="the output of the engine_schemas example")
    ap.add_argument("--xgrammar-site", help="site-packages holding the xgrammar package")
    ap.add_argument("--model", help="a GGUF model (its vocabulary) for llama-cpp-python")
    args = ap.parse_args()
    records = [json.loads(line) for line in open(args.jsonl)]
    refused = [r for r in records if "error" in r]
    print(f"{len(records)} schemas, {len(refused)} refused by our conversion (not sent):")
    for r in refused:
        print(f"   {r['dialect']} {r['source']}/{r['name']}: {r['error'][:200]}")
    emitted = [r for r in records if "error" not in r]
    if args.xgrammar_site:
        try:
            xg = Xgrammar(load_xgrammar(args.xgrammar_site))
        except Exception as e:
            print(f"== xgrammar not usable: {e}")
        else:
            run(xg, [r for r in emitted if r["dialect"] == "xgrammar"])
    if args.model:
        try:
            lc = LlamaCpp(args.model)
        except Exception as e:
            print(f"== llama-cpp-python not usable: {e}")
        else:
            run(lc, [r for r in emitted if r["dialect"] == "llamacpp"])


if __name__ == "__main__":
    main()
