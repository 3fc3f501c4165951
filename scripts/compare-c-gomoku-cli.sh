#!/bin/bash
# compare-c-gomoku-cli.sh: plays the same command lines through c-gomoku-cli
# and `arena gomoku-cli` and compares them game by game: the per-game and
# tournament lines on stdout (Started, Finished, Score, SPRT, Tournament
# update), the -sgf and -pgn files, and the -sample files (csv and bin byte
# for byte; the LZ4 ones decompressed, as the compressors differ). The
# engines are the arena's bundled deterministic ones (greedy, search
# depth=N): the same position gives the same move, so the same openings with
# the same colours in the same order give the same games; and, where RAPFI
# names its pbrain-rapfi, Rapfi at fixed nodes, which keeps its hash table
# from game to game within a process, so that its games are the same only
# where its processes live as long. Times are masked (think times, dates,
# the pace line); docs/gomoku-cli.md lists what still differs.
#
# usage: [RAPFI=pbrain-rapfi] [ONLY=REGEX] scripts/compare-c-gomoku-cli.sh C_GOMOKU_CLI [ARENA] [KEEP_DIR]
#   C_GOMOKU_CLI  path of a c-gomoku-cli binary (built from its public source,
#                 github.com/dhbloo/c-gomoku-cli)
#   ARENA         an arena binary (default: built from this tree)
#   KEEP_DIR      keep every run's output there (default: a temporary folder)
#   ONLY          run only the scenarios whose names match this regular expression
#   RAPFI         Rapfi's engine (github.com/dhbloo/rapfi; its internal
#                 config serves); without it the Rapfi scenarios are not run
# Exit status 0 when every scenario matches, 1 when one differs.
set -euo pipefail
CGC=$(realpath "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${3:-}" ]; then work=$(mkdir -p "$3" && realpath "$3"); else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
if [ -n "${2:-}" ]; then ARENA=$(realpath "$2"); else (cd "$here" && go build -o "$work/arena" ./cmd/arena); ARENA=$work/arena; fi

# Opening lists, fixed: 3-stone openings (White moves next), and a mix of
# 1 to 4 stones, as offsets from the centre of a 15x15 board.
awk 'BEGIN { s = 7; for (i = 0; i < 20; i++) { n = 0; line = "";
	while (n < 3) { s = (s * 1103515245 + 12345) % 2147483648; x = int(s / 65536) % 7 - 3;
		s = (s * 1103515245 + 12345) % 2147483648; y = int(s / 65536) % 7 - 3;
		if (index(" " line, " " x "," y ",") == 0) { line = line x "," y ", "; n++ } }
	print substr(line, 1, length(line) - 2) } }' >"$work/odd.txt"
# The same openings in pos notation (letter = x from a, number = y from 1).
awk -F', *' '{ line = ""; for (i = 1; i < NF; i += 2) line = line sprintf("%c%d", 97 + $i + 7, $(i + 1) + 8); print line }' \
	"$work/odd.txt" >"$work/odd-pos.txt"
# 50 two-stone openings: Black moves next, so that arena match (Black first
# in a pair's first game) deals the colours as c-gomoku-cli.
awk 'BEGIN { s = 11; for (i = 0; i < 50; i++) { do { s = (s * 1103515245 + 12345) % 2147483648; a = int(s / 65536) % 7 - 3;
		s = (s * 1103515245 + 12345) % 2147483648; b = int(s / 65536) % 7 - 3;
		s = (s * 1103515245 + 12345) % 2147483648; c = int(s / 65536) % 7 - 3;
		s = (s * 1103515245 + 12345) % 2147483648; d = int(s / 65536) % 7 - 3 } while (a == c && b == d);
	print a "," b ", " c "," d } }' >"$work/even.txt"
cat >"$work/mixed.txt" <<'EOF'
0,0
0,0, 1,1
0,0, 1,0, 2,2
0,0, 1,-1, -1,1, 2,2
1,2
-2,1, 0,0
3,1, -1,-2, 0,3
-1,-1, 1,1, 2,-2, -2,2
2,0, 0,2
-3,0
1,1, -1,-1, 0,2
0,-2, 2,0, -2,0, 0,2
-1,2, 2,1, 1,-2
EOF

# search under a fixed time of 10 minutes a move and a node limit: its
# depth or its nodes, never the clock, end its search, so its moves do not
# depend on the machine's load.
g1=(-engine "cmd=$ARENA engine greedy" name=greedy)
s1=(-engine "cmd=$ARENA engine search depth=1 nodes=3000 time=600000" name=search1)
s2=(-engine "cmd=$ARENA engine search depth=2 nodes=3000 time=600000" name=search2)
status=0

# stdout_lines FILE: every line, the pace masked.
stdout_lines() { grep -v -e '^seed ' "$1" | sed -E 's/^Matches\/min: .*/Matches\/min: (masked)/'; }
# compare_samples DIR: every sample file c-gomoku-cli wrote in DIR/cgc
# against the arena's of the same name: csv, bin and binpack byte for byte,
# .lz4 files decompressed first (lz4 -d).
compare_samples() {
	local f b ok=0
	for f in "$1"/cgc/sample.*; do
		[ -e "$f" ] || continue
		b=$(basename "$f")
		case $b in
		*.lz4) cmp <(lz4 -dc "$f") <(lz4 -dc "$1/arena/$b") ;;
		*) cmp "$f" "$1/arena/$b" ;;
		esac >>"$1/diff.sample" 2>&1 || ok=1
	done
	return $ok
}
mask_records() { [ -f "$1" ] || return 0; sed -E -e 's/DT\[[^]]*\]/DT[]/' -e 's/C\[[0-9]+ms\]/C[ms]/g' -e 's/^\[Date "[^"]*"\]/[Date ""]/' "$1"; }

# selected NAME: whether ONLY (a regular expression; default all) selects
# the scenario.
selected() { [ -z "${ONLY:-}" ] || [[ $1 =~ $ONLY ]]; }

# scenario NAME ARGS...: runs both, compares, says MATCH or DIFFERS.
scenario() {
	local name=$1; shift
	selected "$name" || return 0
	local d=$work/$name; mkdir -p "$d/cgc" "$d/arena"
	(cd "$d/cgc" && "$CGC" "$@" -sgf games.sgf -pgn games.pgn >stdout 2>stderr) || echo "$name: c-gomoku-cli exit status $?"
	(cd "$d/arena" && "$ARENA" gomoku-cli "$@" -sgf games.sgf -pgn games.pgn >stdout 2>stderr) || echo "$name: arena exit status $?"
	local games; games=$(grep -c 'Finished game' "$d/cgc/stdout" || true)
	local ok=1
	if [ "${CONCURRENT:-0}" = 1 ]; then
		# Several games at once: which worker plays which game and the order
		# of the lines are the machine's; the games themselves are not.
		for f in cgc arena; do
			{ grep -E 'Finished game' "$d/$f/stdout" || true; } | sed -E 's/^\[[0-9]+\] //' | sort >"$d/$f/games"
			mask_records "$d/$f/games.sgf" | awk 'BEGIN{RS=""} {gsub(/\n/," "); print}' | sort >"$d/$f/sgf"
		done
		diff -u "$d/cgc/games" "$d/arena/games" >"$d/diff.stdout" || ok=0
		diff -u "$d/cgc/sgf" "$d/arena/sgf" >"$d/diff.sgf" || ok=0
	else
		diff -u <(stdout_lines "$d/cgc/stdout") <(stdout_lines "$d/arena/stdout") >"$d/diff.stdout" || ok=0
		diff -u <(mask_records "$d/cgc/games.sgf") <(mask_records "$d/arena/games.sgf") >"$d/diff.sgf" || ok=0
		diff -u <(mask_records "$d/cgc/games.pgn") <(mask_records "$d/arena/games.pgn") >"$d/diff.pgn" || ok=0
		compare_samples "$d" || ok=0
	fi
	if [ $ok = 1 ]; then
		echo "$name: MATCH ($games games)"
	else
		echo "$name: DIFFERS ($games games by c-gomoku-cli); first differences:"
		awk 'NR <= 40' "$d"/diff.*
		status=1
	fi
}

cd "$work"
# 240 games: 3-stone openings in a random order, each played twice, six
# passes through the list under -transform.
scenario odd-random-transform-repeat "${g1[@]}" "${s1[@]}" -each tc=1200 -rule 0 -boardsize 15 -games 240 \
	-openings file="$work/odd.txt" order=random srand=12345 -transform -repeat
# Three engines round robin over rounds, openings of 1 to 4 stones.
scenario mixed-roundrobin-rounds "${g1[@]}" "${s1[@]}" "${s2[@]}" -each tc=1200 -rule 1 -boardsize 15 -games 5 -rounds 4 \
	-openings file="$work/mixed.txt" order=random srand=99 -transform -repeat
# A gauntlet, sequential openings, no -repeat.
scenario gauntlet-sequential "${g1[@]}" "${s1[@]}" "${s2[@]}" -each tc=1200 -rule 0 -boardsize 15 -gauntlet -games 7 -rounds 3 \
	-openings file="$work/mixed.txt" -transform
# An SPRT that stops the match.
scenario sprt "${s1[@]}" "${g1[@]}" -each tc=1200 -rule 0 -boardsize 15 -games 400 -repeat \
	-openings file="$work/odd.txt" order=random srand=7 -transform -sprt elo0=-60 elo1=-20 alpha=0.2 beta=0.2
# Renju, 15x15, on the mixed list.
scenario renju "${g1[@]}" "${s1[@]}" -each tc=1200 -rule 4 -boardsize 15 -games 26 -repeat \
	-openings file="$work/mixed.txt" order=random srand=3
# No opening file: every game from the empty board (not renju's openings).
scenario renju-empty-board "${g1[@]}" "${s1[@]}" -each tc=1200 -rule 4 -boardsize 15 -games 6

# The openings in pos notation.
scenario pos-transform "${g1[@]}" "${s1[@]}" -each tc=1200 -rule 0 -boardsize 15 -games 40 \
	-openings file="$work/odd-pos.txt" type=pos order=random srand=21 -transform

# An engine that plays an occupied point: the illegal-move line, the
# forfeit.
scenario illegal-move "${g1[@]}" -engine "cmd=$ARENA engine faulty illegal-at=3" name=faulty -each tc=1200 -rule 0 \
	-boardsize 15 -games 8 -openings file="$work/odd.txt" -repeat

# An engine that crashes at its third move: the crash forfeit, and a new
# process (another Load engine line) for the next game.
scenario crash-restart "${g1[@]}" -engine "cmd=$ARENA engine faulty crash-at=3" name=faulty -each tc=1200 -rule 0 \
	-boardsize 15 -games 6 -openings file="$work/odd.txt" -repeat

# Engines without name=: each is named by its answer to ABOUT.
scenario about-names -engine "cmd=$ARENA engine greedy" -engine "cmd=$ARENA engine search depth=1 nodes=3000 time=600000" \
	-each tc=1200 -rule 0 -boardsize 15 -games 30 -openings file="$work/odd.txt" order=random srand=11 -repeat
# Two games at a time: the same games, in the machine's order.
CONCURRENT=1 scenario concurrency-2 "${g1[@]}" "${s1[@]}" -each tc=1200 -rule 0 -boardsize 15 -games 60 -concurrency 2 \
	-openings file="$work/odd.txt" order=random srand=5 -transform -repeat
# Board 20, the standard rule (exact five), every sample format.
for format in csv bin bin_lz4 binpack binpack_lz4; do
	scenario "sample-$format" "${g1[@]}" "${s1[@]}" "${s2[@]}" -each tc=1200 -rule 1 -boardsize 20 -games 4 -rounds 2 \
		-openings file="$work/mixed.txt" order=random srand=17 -repeat -transform -sample format=$format
done
# 100 games with binpack samples, and the same games played by arena match
# in two shards merged: the merged binpack decodes (lz4 -d) to the same bytes.
scenario binpack-100 "${g1[@]}" "${s1[@]}" -each tc=1200 -rule 1 -boardsize 20 -games 100 -repeat \
	-openings file="$work/even.txt" -sample format=binpack_lz4
selected binpack-100 && for k in 0 1; do
	(cd "$work/binpack-100" && "$ARENA" match -quiet -rule standard -size 20 -games 100 -openings "$work/even.txt" \
		-openings-format offset -order sequential -tc 1200s -shard "$k/2" -out shards -sample format=binpack_lz4,file=sample.binpack.lz4 \
		"greedy=$ARENA engine greedy" "search1=$ARENA engine search depth=1 nodes=3000 time=600000" >/dev/null 2>&1) ||
		echo "binpack-100: arena match shard $k: exit status $?"
done
selected binpack-100 && { (cd "$work/binpack-100" && "$ARENA" merge shards >/dev/null 2>&1) || echo "binpack-100: arena merge: exit status $?"; }
if ! selected binpack-100; then
	:
elif cmp <(lz4 -dc "$work/binpack-100/cgc/sample.binpack.lz4") <(lz4 -dc "$work/binpack-100/shards/sample.binpack.lz4"); then
	echo "binpack-100-shards-merged: MATCH"
else
	echo "binpack-100-shards-merged: DIFFERS (shards merged against c-gomoku-cli's sample.binpack.lz4)"
	status=1
fi

# Rapfi at fixed nodes with two other engines: its hash table lives as long
# as its process, so its games are the same only where c-gomoku-cli's
# process lifetime is kept (a new process when a worker's pair changes,
# START for every game).
if [ -n "${RAPFI:-}" ]; then
	RAPFI=$(realpath "$RAPFI")
	r1=(-engine "cmd=$RAPFI" name=rapfi nodes=1500)
	scenario rapfi-gauntlet "${s1[@]}" "${r1[@]}" "${s2[@]}" -each tc=600000 -rule 1 -boardsize 20 -gauntlet -games 8 -rounds 3 \
		-openings file="$work/mixed.txt" order=random srand=23 -repeat -transform -sample format=binpack
	scenario rapfi-roundrobin "${g1[@]}" "${r1[@]}" "${s1[@]}" -each tc=600000 -rule 1 -boardsize 20 -games 4 -rounds 2 \
		-openings file="$work/mixed.txt" order=random srand=29 -repeat -transform -sample format=binpack_lz4
else
	echo "rapfi-gauntlet, rapfi-roundrobin: not run (RAPFI is not set)"
fi
exit $status
