package pairing

import (
	"encoding/json"
	"fmt"
	"io"
)

// The JSON event form: what a TRF-16 report tells the pairing, for fields of
// any size (TRF-16's starting ranks have four digits, so it stops at 9,999
// players). `arena pair FILE.json` reads it:
//
//	{
//	  "name": "Open 2026",
//	  "rounds": 11,
//	  "bye_points": 1,
//	  "initial_second": false,
//	  "forbidden": [[3, 17, 250]],
//	  "players": [{"name": "A", "rating": 2100}, {"name": "B", "absent": true}],
//	  "games": [
//	    {"round": 1, "black": 1, "white": 2, "black_points": 1, "white_points": 0},
//	    {"round": 1, "black": 3, "white": 0, "black_points": 1},
//	    {"round": 2, "black": 2, "white": 1, "black_points": 0, "white_points": 1, "forfeit": true},
//	    {"round": 3, "black": 1, "white": 3, "black_points": 0, "white_points": 0, "forfeit": true}
//	  ]
//	}
//
// Players are listed in starting-rank order: the first is starting rank 1.
// Games name players by starting rank. "black" moves first (TRF's White);
// "black_points" and "white_points" are each side's points (1, 0.5 or 0),
// each on its own as TRF-16 writes them, so a double forfeit is 0 and 0 with
// "forfeit" true. A game with "white": 0 is a round without an opponent: the
// pairing-allocated bye unless "forfeit" is true, in which case it is an
// absence or requested bye worth "black_points". "absent"
// leaves a player out of the round being paired; "rounds" is the number of
// rounds planned (the last has the topscorer exceptions); "bye_points" is
// what the pairing-allocated bye scores (1, 0.5 or 0; 1 when left out);
// "initial_second" makes the initial colour the second move (TRF's
// "XXC black1"); "forbidden" lists groups of players who must not meet.
// Unknown fields are refused.

type eventJSON struct {
	Name          string       `json:"name,omitempty"`
	Rounds        int          `json:"rounds,omitempty"`
	ByePoints     *float64     `json:"bye_points,omitempty"`
	InitialSecond bool         `json:"initial_second,omitempty"`
	Forbidden     [][]int      `json:"forbidden,omitempty"`
	Players       []playerJSON `json:"players"`
	Games         []gameJSON   `json:"games"`
}

type playerJSON struct {
	Name   string `json:"name,omitempty"`
	Rating int    `json:"rating,omitempty"`
	Absent bool   `json:"absent,omitempty"`
}

type gameJSON struct {
	Round       int     `json:"round"`
	Black       int     `json:"black"`
	White       int     `json:"white"`
	BlackPoints float64 `json:"black_points"`
	WhitePoints float64 `json:"white_points,omitempty"`
	Forfeit     bool    `json:"forfeit,omitempty"`
}

// ReadEventJSON parses the JSON event form into the same report ReadTRF
// gives. Errors name the field.
func ReadEventJSON(r io.Reader) (*TRF, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var e eventJSON
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("json event: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("json event: more than one JSON value")
	}
	n := len(e.Players)
	if n == 0 {
		return nil, fmt.Errorf("json event: players: none listed")
	}
	if e.Rounds < 0 || e.Rounds > MaxRounds {
		return nil, fmt.Errorf("json event: rounds: %d is not a number of rounds (0 to %d)", e.Rounds, MaxRounds)
	}
	t := &TRF{Name: e.Name, Rounds: e.Rounds, InitialBlack: e.InitialSecond}
	if e.ByePoints != nil {
		if err := t.points("P", *e.ByePoints); err != nil {
			return nil, fmt.Errorf("json event: bye_points: %v", err)
		}
	}
	for i, p := range e.Players {
		if p.Rating < 0 {
			return nil, fmt.Errorf("json event: players[%d].rating: %d is negative", i, p.Rating)
		}
		t.Players = append(t.Players, TRFPlayer{Name: p.Name, Rating: p.Rating, Absent: p.Absent})
	}
	rank := func(field string, v int) (int, error) {
		if v < 1 || v > n {
			return 0, fmt.Errorf("json event: %s: %d is not a starting rank (1-%d)", field, v, n)
		}
		return v - 1, nil
	}
	pairs := 0
	for i, group := range e.Forbidden {
		if !forbiddenPairs(&pairs, len(group)) {
			return nil, fmt.Errorf("json event: forbidden[%d]: the forbidden groups make more than %d pairs", i, MaxForbiddenPairs)
		}
		var ids []int
		for j, v := range group {
			id, err := rank(fmt.Sprintf("forbidden[%d][%d]", i, j), v)
			if err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		t.Forbidden = append(t.Forbidden, ids)
	}
	type slot struct{ round, player int }
	seen := map[slot]int{}
	for i, g := range e.Games {
		field := fmt.Sprintf("games[%d]", i)
		if g.Round < 1 || g.Round > MaxRounds {
			return nil, fmt.Errorf("json event: %s.round: %d is not a round number (1 to %d)", field, g.Round, MaxRounds)
		}
		b, err := rank(field+".black", g.Black)
		if err != nil {
			return nil, err
		}
		w := Bye
		if g.White != 0 {
			if w, err = rank(field+".white", g.White); err != nil {
				return nil, err
			}
			if w == b {
				return nil, fmt.Errorf("json event: %s: player %d plays itself", field, g.Black)
			}
		}
		for _, p := range []int{b, w} {
			if p == Bye {
				continue
			}
			if j, dup := seen[slot{g.Round, p}]; dup {
				return nil, fmt.Errorf("json event: %s: player %d is already in round %d (games[%d])", field, p+1, g.Round, j)
			}
			seen[slot{g.Round, p}] = i
		}
		game := Game{Round: g.Round, Black: b, White: w, BlackPoints: g.BlackPoints, WhitePoints: g.WhitePoints, Forfeit: g.Forfeit}
		if err := game.Check(); err != nil {
			return nil, fmt.Errorf("json event: %s: %v", field, err)
		}
		t.Games = append(t.Games, game)
	}
	return t, nil
}

// WriteEventJSON writes the report in the JSON event form ReadEventJSON
// reads.
func WriteEventJSON(w io.Writer, t *TRF) error {
	e := eventJSON{Name: t.Name, Rounds: t.Rounds, ByePoints: t.ByePoints, InitialSecond: t.InitialBlack,
		Players: make([]playerJSON, 0, len(t.Players)), Games: make([]gameJSON, 0, len(t.Games))}
	for _, group := range t.Forbidden {
		ranks := make([]int, len(group))
		for i, id := range group {
			ranks[i] = id + 1
		}
		e.Forbidden = append(e.Forbidden, ranks)
	}
	for _, p := range t.Players {
		e.Players = append(e.Players, playerJSON{Name: p.Name, Rating: p.Rating, Absent: p.Absent})
	}
	for _, g := range t.Games {
		if g.Black < 0 || g.Black >= len(t.Players) || (g.White != Bye && (g.White < 0 || g.White >= len(t.Players))) {
			return fmt.Errorf("json event: round %d: game %d-%d names an unknown player", g.Round, g.Black, g.White)
		}
		e.Games = append(e.Games, gameJSON{Round: g.Round, Black: g.Black + 1, White: g.White + 1,
			BlackPoints: g.BlackPoints, WhitePoints: g.WhitePoints, Forfeit: g.Forfeit})
	}
	enc := json.NewEncoder(w)
	return enc.Encode(e)
}

// PairJSON is PairTRF for the JSON event form.
func PairJSON(r io.Reader, w io.Writer) error {
	t, err := ReadEventJSON(r)
	if err != nil {
		return err
	}
	return pairReport(t, w)
}
