#!/usr/bin/env bash
# Compile cost of the derive against serde-only and serde + schemars 1.x, on a generated crate of
# 100 types (60 structs, 40 enums, 554 fields).
#
# For each variant and profile it measures a cold build (empty target dir; dependencies included)
# and a recompile after the generated file changes (the derive's own cost). The variants:
#   serde      serde's derive only
#   schemars   serde + schemars 1.x
#   ours-min   serde + schema-core with `default-features = false`
#   ours       serde + schema-core with its default features
#   ours-all   serde + schema-core with every feature of its manifest
# Usage: scripts/compile_cost.sh [debug|release|both] (default: debug); VARIANTS="serde ours"
# picks some. Needs the crates.io index (schemars is fetched like any dependency). Slow: one cold
# build per variant and profile.
#
# Each build prints its wall time and its CPU time (user + system of cargo and every rustc it
# ran): on a shared or loaded machine the CPU time is the steadier figure. schema-core and
# schema-macros are path dependencies here, which cargo would build incrementally in debug (256
# codegen units, extra work) where a crates.io dependency is not: the generated crate's manifest
# turns incremental off for them, so they build as they will for a user.
set -euo pipefail
profiles=${1:-debug}
[ "$profiles" = both ] && profiles="debug release"
root=$(cd "$(dirname "$0")/.." && pwd)
work=${COMPILE_COST_DIR:-$(mktemp -d -t compile_cost.XXXXXX)}
echo "work dir: $work"

# The type definitions, shared by every variant: `$1` is the derive list.
gen_types() {
  local derives=$1
  echo "#![allow(dead_code)]"
  echo "use serde::{Deserialize, Serialize};"
  for i in $(seq 0 39); do
    echo "/// Enum $i."
    echo "#[derive($derives)]"
    echo "#[serde(rename_all = \"snake_case\")]"
    echo "pub enum E$i { Alpha, Beta, Gamma, Delta$([ $((i % 2)) = 0 ] && echo ', Epsilon') }"
  done
  for i in $(seq 0 59); do
    echo "/// Struct $i."
    echo "#[derive($derives)]"
    echo "pub struct S$i {"
    # 9 fields each, plus one more on every third struct: 60 * 9 + 20 = 560... minus 6 below = 554.
    local n=9
    [ $((i % 3)) = 0 ] && n=10
    [ "$i" -lt 6 ] && n=$((n - 1))
    for f in $(seq 1 "$n"); do
      case $((f % 6)) in
        0) echo "    /// Field $f: a name."; echo "    pub name_$f: String," ;;
        1) echo "    /// Field $f: a count."; echo "    pub count_$f: u32," ;;
        2) echo "    /// Field $f: an optional note."; echo "    pub note_$f: Option<String>," ;;
        3) echo "    /// Field $f: tags."; echo "    pub tags_$f: Vec<String>," ;;
        4) echo "    /// Field $f: a kind."; echo "    pub kind_$f: E$(((i + f) % 40))," ;;
        5) if [ "$i" -gt 0 ]; then echo "    /// Field $f: a child."; echo "    pub child_$f: Option<S$((i - 1))>,";
           else echo "    /// Field $f: a flag."; echo "    pub flag_$f: bool,"; fi ;;
      esac
    done
    echo "}"
  done
}

make_crate() {
  local name=$1 deps=$2 derives=$3 prelude=$4 extra=${5:-}
  mkdir -p "$work/$name/src"
  cat > "$work/$name/Cargo.toml" <<TOML
[package]
name = "cc-$name"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
serde = { version = "1", features = ["derive"] }
$deps

[workspace]
$extra
TOML
  { echo "$prelude"; gen_types "$derives"; } > "$work/$name/src/lib.rs"
}

make_crate serde "" "Serialize, Deserialize" ""
make_crate schemars 'schemars = "1"' "Serialize, Deserialize, schemars::JsonSchema" ""
# Every feature schema-core's manifest declares (the lines of its [features] table but `default`).
all_features=$(sed -n '/^\[features\]/,/^\[/p' "$root/schema-core/Cargo.toml" |
  sed -n 's/^\([a-z_0-9-]*\) *=.*/\1/p' | grep -vx default | paste -sd, -)
no_incr=$(printf '[profile.dev.package.%s]\nincremental = false\n' schema-core schema-macros)
ours_derives="Serialize, Deserialize, schema_core::AgentSchema"
make_crate ours-min "schema-core = { path = \"$root/schema-core\", default-features = false }" \
  "$ours_derives" "" "$no_incr"
make_crate ours "schema-core = { path = \"$root/schema-core\" }" "$ours_derives" "" "$no_incr"
make_crate ours-all "schema-core = { path = \"$root/schema-core\", features = [\"${all_features//,/\", \"}\"] }" \
  "$ours_derives" "" "$no_incr"
echo "all features: $all_features"
grep -c "pub [a-z_0-9]*:" "$work/ours/src/lib.rs" | sed 's/^/fields: /'

# Runs a command, its output into $work/log; prints the wall seconds it took and the CPU seconds
# (user + system) of it and its children.
secs() {
  local s e
  s=$(date +%s.%N)
  /usr/bin/time -o "$work/cpu" -f "%U %S" "$@" > "$work/log" 2>&1
  e=$(date +%s.%N)
  echo "$(echo "$e - $s" | bc) $(awk '{print $1 + $2}' "$work/cpu")"
}

for profile in $profiles; do
  flag=""; [ "$profile" = release ] && flag="--release"
  for v in ${VARIANTS:-serde schemars ours-min ours ours-all}; do
    dir="$work/$v"
    rm -rf "$dir/target"
    (cd "$dir" && cargo fetch -q)
    read -r cold cold_cpu < <(cd "$dir" && secs cargo build $flag)
    crates=$(grep -c "Compiling" "$work/log")
    echo "// touched" >> "$dir/src/lib.rs"
    read -r warm warm_cpu < <(cd "$dir" && secs cargo build $flag)
    printf '%-8s %-9s cold %6.1f s wall %6.1f s cpu (%d crates)  recompile %5.1f s wall %5.1f s cpu  load %s\n' \
      "$profile" "$v" "$cold" "$cold_cpu" "$crates" "$warm" "$warm_cpu" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done
