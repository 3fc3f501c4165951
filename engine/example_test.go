package engine_test

import (
	"fmt"
	"time"

	"gomoku-arena/engine"
	"gomoku-arena/rules"
)

// A game's requests each carry a deadline; faults come back as data.
func Example() {
	e, err := engine.Start(engine.Spec{Name: "faulty", Command: "builtin:faulty", Args: []string{"hang-at=3"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	deadline := func() time.Time { return time.Now().Add(2 * time.Second) }
	if err := e.NewGame(15, []engine.Info{{Key: "timeout_turn", Value: "1000"}}, deadline()); err != nil {
		fmt.Println(err) // a *engine.Refusal or *engine.FaultError
		return
	}
	r := e.Begin(deadline())
	fmt.Println(r.Move, r.Fault == "")
	r = e.Turn(rules.Point{X: 8, Y: 8}, deadline())
	fmt.Println(r.Move, r.Fault == "")
	r = e.Turn(rules.Point{X: 8, Y: 7}, time.Now().Add(100*time.Millisecond))
	fmt.Println(r.Fault)
	e.Kill() // a hung engine is killed; the next NewGame starts a new process
	// Output:
	// 7,7 true
	// 6,6 true
	// timeout
}
