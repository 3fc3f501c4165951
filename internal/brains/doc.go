// Package brains owns the engines that ship with the arena: random, greedy and
// search. Each speaks the pbrain protocol on stdin/stdout and runs as a real
// subprocess (`arena engine NAME`, config spec `builtin:NAME`), so the arena
// drives it exactly as it drives any outside engine.
//
// The protocol loop and the game state are shared; an engine is only a move
// chooser. Every move an engine sends is checked first by the game's
// rules.Rule (Play on a clone), so the engines know outer-open, renju
// forbidden moves and pente captures without knowing those rules by name.
package brains
