// Package results owns what a game and an event leave behind: game records
// and their file formats (SGF, psq), the journal of finished games, standings
// with tie-breaks, crosstables, ratings and match statistics, and the tables
// they are rendered to. The math here is pure; only the writers touch files.
package results
