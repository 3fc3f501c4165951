// Package remote lets an entrant play from its own machine while the
// arbiter keeps everything else: the rules, the clocks, the checks, the
// records and the journal.
//
// The arbiter runs a remote entrant exactly like a local engine, through
// the engine driver: the engine's program is a relay (`arena engine relay`,
// relay.go), a local subprocess whose stdin and stdout are the Gomocup
// protocol. The relay connects over a unix socket to the event's Gateway
// (gateway.go), which pairs it with the entrant's authenticated network
// session (session.go): a WebSocket over TLS opened by `arena connect`
// (client.go) on the entrant's machine, which starts the real engine there
// (engine.StartProgram: contained as the arbiter's own engines are) and
// relays its lines. Every protection of the driver (deadlines, bounded
// reading, flood draining, clocks measured from request written to reply
// read) therefore holds for a remote engine too, and its think time is
// measured at the server.
//
// A session that drops is given a grace period to come back, with the
// clock running (stream.go); on its return the client starts the engine
// afresh and the gateway resyncs it from the protocol lines it relayed
// (track.go). Past the grace period, or after too many disconnections in
// one game, the relay exits with ExitDisconnect and the game is forfeited.
//
// Tokens (tokens.go) are kept only as hashes in the event folder; the
// server's certificate (cert.go) is generated there when the organizer has
// none, and clients pin its fingerprint.
package remote
