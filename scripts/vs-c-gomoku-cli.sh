#!/bin/bash
# vs-c-gomoku-cli.sh: whole-process timings of `arena gomoku-cli` against
# c-gomoku-cli on the same command line and the same instant engines
# (the bench kit's pbrain_instant.c), interleaved, and the ratios of medians.
#
# usage: scripts/vs-c-gomoku-cli.sh C_GOMOKU_CLI [GAMES] [REPS] [ARENA]
#   C_GOMOKU_CLI  path of a c-gomoku-cli binary (built from its public source)
#   GAMES         games per run (default 2000), REPS runs per cell (default 5)
#   ARENA         an arena binary (default: built from this tree into a temp dir)
# Needs cc. The engine source is engine/testdata/pbrain_instant.c.
set -euo pipefail
CGC=$(realpath "$1"); GAMES=${2:-2000}; REPS=${3:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/pbrain-instant" "$here/engine/testdata/pbrain_instant.c"
if [ $# -ge 4 ]; then ARENA=$(realpath "$4"); else (cd "$here" && go build -o "$tmp/arena" ./cmd/arena); ARENA=$tmp/arena; fi
E=$tmp/pbrain-instant
one() { # runner conc mode -> "wall cpu"
	local extra=(); [ "$3" = board ] && extra=(-sendbyboard)
	local cmd=("$CGC"); [ "$1" = arena ] && cmd=("$ARENA" gomoku-cli)
	(cd "$tmp" && /usr/bin/time -o "$tmp/t" -f "%e %U %S" "${cmd[@]}" -engine cmd="$E 1" name=a -engine cmd="$E 2" name=b \
		-each tc=10/0+0 -rule 0 -boardsize 15 -games "$GAMES" -concurrency "$2" "${extra[@]}" >/dev/null 2>&1)
	awk '{printf "%s %.2f\n", $1, $2+$3}' "$tmp/t"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for mode in turn board; do for c in 1 2; do
	: >"$tmp/arena.$mode.$c"; : >"$tmp/cgc.$mode.$c"
done; done
for r in $(seq "$REPS"); do
	for mode in turn board; do for c in 1 2; do
		one cgc "$c" "$mode" >>"$tmp/cgc.$mode.$c"
		one arena "$c" "$mode" >>"$tmp/arena.$mode.$c"
	done; done
done
printf '%-6s %-4s %-22s %-22s %s\n' mode conc "arena/c-gomoku-cli wall" "arena/c-gomoku-cli cpu" "games/s c2 vs c1 (arena, c-gomoku-cli)"
for mode in turn board; do
	for c in 1 2; do
		aw=$(cut -d' ' -f1 "$tmp/arena.$mode.$c" | median); cw=$(cut -d' ' -f1 "$tmp/cgc.$mode.$c" | median)
		ac=$(cut -d' ' -f2 "$tmp/arena.$mode.$c" | median); cc_=$(cut -d' ' -f2 "$tmp/cgc.$mode.$c" | median)
		eval "aw$c=$aw cw$c=$cw"
		printf '%-6s %-4s %-22s %-22s\n' "$mode" "$c" "$(echo "$aw $cw" | awk '{printf "%.2f", $1/$2}')" "$(echo "$ac $cc_" | awk '{printf "%.2f", $1/$2}')"
	done
	printf '%-6s %-4s %-45s %s\n' "$mode" "" "" "$(echo "$aw1 $aw2 $cw1 $cw2" | awk '{printf "%.2f, %.2f", $1/$2, $3/$4}')"
done
