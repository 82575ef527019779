#!/usr/bin/env bash
# Hard self-play for the Cargo Express balance report (docs/express-balance.md), in chunks
# of 10 games that can be stopped and resumed: seeds START, START+STEP, ... up to LAST for
# 2, 3 and 4 seats; each finished chunk is kept as OUT/hard.N.SEED.jsonl and skipped next
# time. RULES (default x0.2) is the rules version played; OUT defaults to
# docs/data/express-balance-$RULES (a working folder: the report keeps the games as one
# compressed file, docs/data/express-balance-$RULES.jsonl.gz, made with
# `cat OUT/hard.*.jsonl | gzip -9n > docs/data/express-balance-$RULES.jsonl.gz`).
# Two loops on a 2-core machine: `balance_chunks.sh 1 2 100 &` and
# `balance_chunks.sh 2 2 100 &` (100 seeds = 1,000 games per seat count). Run it niced.
# PYTHONPATH may point at a copy of the engine, so that edits made meanwhile do not reach
# the games.
set -euo pipefail
cd "$(dirname "$0")/.."
start=${1:-1}; step=${2:-1}; last=${3:-100}
rules=${RULES:-x0.2}
out=${OUT:-docs/data/express-balance-$rules}
mkdir -p "$out"
for ((seed = start; seed <= last; seed += step)); do
  for players in 2 3 4; do
    kept="$out/hard.$players.$seed.jsonl"
    [ -e "$kept" ] && continue
    part=$(mktemp)
    python3 -m express balance --level hard --players "$players" --games 10 --seed "$seed" \
        --rules "$rules" --save "$part" >/dev/null
    mv "$part" "$kept"
  done
done
