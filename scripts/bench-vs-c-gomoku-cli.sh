#!/bin/bash
# bench-vs-c-gomoku-cli.sh: the arena against c-gomoku-cli on the same
# command line, two instant engines, as an author running self-play would:
#
#   RUNNER -each tc=60/10 -rule 0 -boardsize 15 -games N -concurrency C \
#          -engine cmd="pbrain-instant 1" -engine cmd="pbrain-instant 2" [-sendbyboard]
#
# It prints, in one run:
#   - the wall-time ratio arena / c-gomoku-cli at concurrency 1 and 2 in turn
#     mode and 1 in board mode: the median over REPS pairs of runs, each pair
#     run back to back in alternating order, the ratio taken within the pair
#     (a shared machine's load moves both runs of a pair alike);
#   - the runner's own CPU per game (user + sys of the runner process alone,
#     not its engines: read from /proc/PID/stat of the exited runner before
#     it is reaped, with waitid WNOWAIT) against c-gomoku-cli's, at
#     concurrency 1, 2, 4, 8 and 16, turn and board mode (median of REPS);
#   - on a machine with more than 2 cores, games per second of both at
#     concurrency 1, 2, 4, ... up to the core count.
# CPU per game does not depend on the core count the way wall time does: when
# games are short, throughput on many cores is bounded by it.
#
# usage: scripts/bench-vs-c-gomoku-cli.sh C_GOMOKU_CLI [GAMES] [REPS]
#   C_GOMOKU_CLI  path of a c-gomoku-cli binary (built from its public source)
#   GAMES         games per run (default 400), REPS pairs per cell (default 5)
# Environment: ARENA (an arena binary; default: built from this tree),
# ENGINE (an instant engine; default: engine/testdata/pbrain_instant.c built
# with cc), CONCS (the CPU concurrencies, default 1,2,4,8,16).
# Needs go (unless ARENA), cc (unless ENGINE) and python3.
set -euo pipefail
CGC=$(realpath "$1"); GAMES=${2:-400}; REPS=${3:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -n "${ARENA:-}" ]; then ARENA=$(realpath "$ARENA"); else (cd "$here" && go build -o "$tmp/arena" ./cmd/arena); ARENA=$tmp/arena; fi
if [ -n "${ENGINE:-}" ]; then ENGINE=$(realpath "$ENGINE"); else cc -O2 -o "$tmp/pbrain-instant" "$here/engine/testdata/pbrain_instant.c"; ENGINE=$tmp/pbrain-instant; fi
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# arena $(cd "$here" && git describe --always --dirty 2>/dev/null || echo '?'), c-gomoku-cli $CGC, engine $ENGINE, $GAMES games a run, $REPS runs a cell"
cd "$tmp"
exec python3 - "$ARENA" "$CGC" "$ENGINE" "$GAMES" "$REPS" "${CONCS:-1,2,4,8,16}" <<'EOF'
import os, subprocess, sys, statistics, time

arena, cgc, engine, games, reps, concs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
concs = [int(c) for c in concs.split(',')]
hz = os.sysconf('SC_CLK_TCK')

def run(who, conc, board):
    """One run: wall seconds, the runner's own CPU seconds (user + sys)."""
    cmd = [arena, 'gomoku-cli'] if who == 'arena' else [cgc]
    cmd += ['-each', 'tc=60/10', '-rule', '0', '-boardsize', '15', '-games', str(games), '-concurrency', str(conc),
            '-engine', 'cmd=%s 1' % engine, '-engine', 'cmd=%s 2' % engine] + (['-sendbyboard'] if board else [])
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped: its stat is still there
    wall = time.monotonic() - t0
    f = open('/proc/%d/stat' % p.pid).read().rsplit(')', 1)[1].split()
    own = (int(f[11]) + int(f[12])) / hz  # utime + stime: the runner's threads, not the engines it reaped
    if p.wait():
        sys.exit('%s exited %d' % (' '.join(cmd), p.returncode))
    return wall, own

def pairs(conc, board):
    """REPS pairs, the order alternating: [(arena wall, cpu), (cgc wall, cpu)]."""
    out = []
    for r in range(reps):
        if r % 2:
            a = run('arena', conc, board); c = run('cgc', conc, board)
        else:
            c = run('cgc', conc, board); a = run('arena', conc, board)
        out.append((a, c))
    return out

mode = lambda board: 'board' if board else 'turn'
print('\n## Wall time, arena / c-gomoku-cli (median of %d interleaved pairs; must be <= 0.8)\n' % reps)
print('| mode | concurrency | arena s | c-gomoku-cli s | ratio |\n|---|---|---|---|---|')
for conc, board in ((1, False), (2, False), (1, True)):
    ps = pairs(conc, board)
    print('| %s | %d | %.3f | %.3f | **%.2f** |' % (mode(board), conc, statistics.median(a[0] for a, _ in ps),
          statistics.median(c[0] for _, c in ps), statistics.median(a[0] / c[0] for a, c in ps)), flush=True)

print('\n## Runner CPU per game, user + sys of the runner alone (median of %d; must be <= 0.8x)\n' % reps)
print('| mode | concurrency | arena ms/game | c-gomoku-cli ms/game | ratio |\n|---|---|---|---|---|')
for board in (False, True):
    for conc in concs:
        ps = pairs(conc, board)
        a = statistics.median(a[1] for a, _ in ps) / games * 1e3
        c = statistics.median(c[1] for _, c in ps) / games * 1e3
        print('| %s | %d | %.3f | %.3f | **%.2f** |' % (mode(board), conc, a, c, a / c if c else float('inf')), flush=True)

cores = os.cpu_count() or 1
if cores > 2:
    print('\n## Games per second up to %d cores (median of %d)\n' % (cores, reps))
    print('| mode | concurrency | arena games/s | c-gomoku-cli games/s |\n|---|---|---|---|')
    for board in (False, True):
        conc = 1
        while conc <= cores:
            ps = pairs(conc, board)
            print('| %s | %d | %.0f | %.0f |' % (mode(board), conc, games / statistics.median(a[0] for a, _ in ps),
                  games / statistics.median(c[0] for _, c in ps)), flush=True)
            conc *= 2
EOF
