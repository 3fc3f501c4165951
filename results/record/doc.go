// Package record owns what one game leaves behind: the game record (its
// moves, think times, result and termination) and its file formats, SGF and
// psq, which it writes and reads back.
package record
