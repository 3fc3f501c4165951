#!/bin/bash
# vs-c-gomoku-cli.sh: whole-process timings of `arena gomoku-cli` against
# c-gomoku-cli on the same command line and the same instant engines
# (the bench kit's pbrain_instant.c), in pairs of runs, and the medians of the
# ratios within pairs, as Markdown tables.
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
# Each cell is run REPS times as a pair (c-gomoku-cli and arena back to back,
# the order alternating), and the ratio is taken within each pair: a machine
# whose load drifts moves both runs of a pair alike.
for r in $(seq "$REPS"); do
	for mode in turn board; do for c in 1 2; do
		if [ $((r % 2)) = 1 ]; then
			cg=$(one cgc "$c" "$mode"); ar=$(one arena "$c" "$mode")
		else
			ar=$(one arena "$c" "$mode"); cg=$(one cgc "$c" "$mode")
		fi
		echo "$ar $cg" >>"$tmp/$mode.$c" # arena wall, cpu; c-gomoku-cli wall, cpu
	done; done
done
ratio() { awk "{printf \"%.3f\\n\", \$$1/\$$2}" "$3" | median; }
printf '| mode | concurrency | arena wall / c-gomoku-cli wall | arena CPU / c-gomoku-cli CPU |\n|---|---|---|---|\n'
for mode in turn board; do for c in 1 2; do
	printf '| %s | %s | %.2f | %.2f |\n' "$mode" "$c" "$(ratio 1 3 "$tmp/$mode.$c")" "$(ratio 2 4 "$tmp/$mode.$c")"
done; done
printf '\n| mode | arena games/s, c2 / c1 | c-gomoku-cli games/s, c2 / c1 |\n|---|---|---|\n'
for mode in turn board; do
	a1=$(cut -d' ' -f1 "$tmp/$mode.1" | median); a2=$(cut -d' ' -f1 "$tmp/$mode.2" | median)
	c1=$(cut -d' ' -f3 "$tmp/$mode.1" | median); c2=$(cut -d' ' -f3 "$tmp/$mode.2" | median)
	printf '| %s | %.2f | %.2f |\n' "$mode" "$(echo "$a1 $a2" | awk '{print $1/$2}')" "$(echo "$c1 $c2" | awk '{print $1/$2}')"
done
