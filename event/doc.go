// Package event runs events: a tournament read from a config (Event) and an
// authors' match (Match). It owns everything between a parsed configuration
// and the arbiter: it builds the entrants, their clocks, the openings and the
// schedule; it claims the output folder (event/outfolder: an exclusive lock
// and event.json, event/identity, which says which event the folder holds);
// it resumes from the journal, checked against the schedule (event/verify);
// and it writes the journal, the game files (event/outputs), the live
// standings and crosstable, the page and the TRF report. A match can also be
// played as a batch: shards of its schedule, each in its own folder inside
// the batch's, played anywhere (a job array's tasks) and folded back by
// event/batch into the match one process would have played (shard.go); the
// folder can keep its games as one SGF collection or none, and write
// training samples (event/outputs). An event can be spread over the tasks of
// a job array (spread.go; the files they share and their merge are
// event/spread's). The arbiter's decisions and the organizer's
// withdrawals are request files of the folder (event/rulings) that Decide
// and Withdraw check against the schedule and the running event journals.
//
// Front ends (the arena command, and later a web page, a remote-entrant
// gateway or a shard runner) parse their own input into one typed value,
// Settings (settings.go: an event file through SettingsOf into
// EventSettings, a match's flags or tokens into MatchSetup), run an event, and
// follow it through an Observer: a stream of Updates (a game started, a
// stone played, a game finished, the standings changed). They never decide
// a schedule, a clock, a folder or a file format.
package event
