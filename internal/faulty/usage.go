package faulty

// Usage lists every argument the engine takes, as `arena help engine` and
// `arena engine faulty help` print it: the faults (faulty.go), the habits
// of real engines (habits.go) and their quirks (quirks.go).
const Usage = `usage: arena engine faulty [ARG ...]   (in configs: command = "builtin:faulty", args = [...])

A pbrain engine that plays a simple game (the first empty point scanning out
from the centre) and answers the protocol properly, except for the faults its
arguments choose. Arguments are key or key=value, combined freely; K is the
engine's own move number in the game, from 1.

  crash-at=K         exit with status 3 instead of the Kth move
  assert-at=K        instead of the Kth move, write a C assertion failure
                     to stderr (after two lines of chatter) and exit with
                     status 134, as a shell reports abort()
  hang-at=K          never answer the Kth move (keeps reading input)
  deaf-at=K          never answer the Kth move and stop reading input
  illegal-at=K       play an occupied point as the Kth move
  offboard-at=K      play 99,99 as the Kth move
  negative-at=K      play -1,3 as the Kth move
  malformed-at=K     send "7," as the Kth move
  exit-after-move=K  send the Kth move, then exit at once (status 0)
  double-at=K        send the Kth move twice
  garbage            binary junk and stray lines before every move
  messages=N         N MESSAGE lines before every move
  say=TEXT           a MESSAGE line with TEXT before every move (markup, say)
  stderr-flood=BYTES that many bytes on stderr before every move
  long-line=BYTES    a line of that many bytes before every move
  suggest            SUGGEST the move, then play what PLAY says
  think=DURATION     sleep before every move
  slow-start=DURATION sleep before answering START
  silent-start       never answer START
  refuse-start       answer START with "ERROR cannot play"
  unknown-restart    answer RESTART with UNKNOWN
  ignore-end         ignore END, stdin EOF and SIGTERM
  spawn-child        start a helper process (this program with sleep=10m)
                     that lingers unless its process group is killed; its
                     pid is announced as "MESSAGE child pid N"
  sleep=DURATION     do nothing but sleep (the helper's mode)
  ponder             think busily all the time, also on the opponent's
                     time, and before every move report the milliseconds
                     spent so since the previous one: "MESSAGE pondered Nms"
  hog=BYTES          at the first move (or SWAP2BOARD answer) allocate and
                     touch that much memory, and keep it
  fork-bomb=N        at the first move fork min(N, 200) copies of itself
                     that only wait, as far as the process limit lets it,
                     and report "MESSAGE forked K of N" (the first error too)
  info-error         answer an INFO line whose key is not one of Gomocup's
                     with "ERROR Unknown command: VALUE" (the value in
                     capitals), as Rapfi does: it reads the value as the
                     next command
  info-delay=DURATION sleep that long on every INFO line before going on,
                     so its ERROR comes after the next command was written
  rif                take part in the arena's RIF extension (RIFPROBE OK;
                     simple legal answers to RIFOPEN, RIFSWAP, RIFOFFER,
                     RIFCHOOSE); without it RIF commands are UNKNOWN
  hash-max-memory    at the first move allocate and touch exactly the
                     INFO max_memory bytes (a hash sized to the limit)
  turn-budget        think INFO timeout_turn on every move, whatever
                     time_left says (a budget read from timeout_turn alone)
  turn-plus=DURATION think INFO timeout_turn plus DURATION on every move
  board-opp-last     answer BOARD only when the last stone listed is the
                     opponent's (field 2); otherwise say nothing
  silent-swap2       read SWAP2BOARD and its stones, and never answer
  debug-flood=N      N DEBUG lines before every move
  restart=REPLY      answer RESTART with REPLY instead of OK: "unknown" (a
                     bare UNKNOWN, as blupig does), "error" (a bare ERROR),
                     "silent" (no answer at all), "exit" (exit at once)
  linger=DURATION    after every move, go on running for DURATION of CPU
                     time before taking a command; a line read meanwhile
                     loses its first word and the rest is read as the next
                     command, as Rapfi drops a command while its "thinking"
                     flag is still set ("INFO time_left 1234" becomes the
                     command TIME_LEFT: "ERROR Unknown command: TIME_LEFT")
  search-on=DURATION after every move, keep searching for DURATION of CPU
                     time; a command read meanwhile (END aside) is refused
                     with "BAD COMMAND <line> IN SEARCH MODE" and dropped
  silent-about       never answer ABOUT (an old engine)
  swap2-colors       want SWAP2BOARD stone lines as x,y,c, as Rapfi does: a
                     line without the colour is refused ("ERROR Color is not
                     a valid value") and the stone ignored, so that the
                     answer is to a board with fewer stones
`
