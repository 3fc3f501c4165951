package record

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"gomoku-arena/rules"
)

// jsonFields is what the JSON form carries of a record: everything, with
// durations in whole milliseconds and empty lists absent.
func jsonFields(r *Record) *Record {
	c := *r
	c.Moves = nil
	for _, m := range r.Moves {
		m.Think, m.Left = time.Duration(m.Think.Milliseconds())*time.Millisecond, time.Duration(m.Left.Milliseconds())*time.Millisecond
		if m.Raw != "" {
			m.Point = rules.Point{}
		}
		if len(m.Captured) == 0 {
			m.Captured = nil
		}
		c.Moves = append(c.Moves, m)
	}
	return &c
}

func TestJSONRoundTrip(t *testing.T) {
	recs := sampleRecords()
	recs["crash with its last words"] = &Record{Rule: "freestyle", Size: 15, Black: "a", White: "b",
		BlackAbout: `name="a", version="1"`, Winner: rules.White, End: Crash, Detail: "exit status 134",
		Moves:    []Move{{Point: pt(7, 7), Color: rules.Black, Think: 5 * time.Millisecond}},
		Messages: []string{"a: MESSAGE hello"}, Stderr: []string{"engine.c:42: main: Assertion `0' failed."}}
	for name, rec := range recs {
		t.Run(name, func(t *testing.T) {
			b, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			got := new(Record)
			if err := json.Unmarshal(b, got); err != nil {
				t.Fatalf("%v\n%s", err, b)
			}
			want := jsonFields(rec)
			if !got.Start.Equal(want.Start) || !got.Finish.Equal(want.Finish) {
				t.Errorf("times %v %v, want %v %v", got.Start, got.Finish, want.Start, want.Finish)
			}
			got.Start, got.Finish, want.Start, want.Finish = time.Time{}, time.Time{}, time.Time{}, time.Time{}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round trip\n got %+v\nwant %+v\n%s", got, want, b)
			}
		})
	}
}

// A record is written the same way by value, by pointer and inside another
// value.
func TestJSONByValue(t *testing.T) {
	rec := sampleRecords()["pente captures"]
	p, err1 := json.Marshal(rec)
	v, err2 := json.Marshal(*rec)
	l, err3 := json.Marshal([]Record{*rec})
	if err1 != nil || err2 != nil || err3 != nil || string(p) != string(v) || string(l) != "["+string(p)+"]" {
		t.Errorf("pointer %s\nvalue %s\nlist %s (%v %v %v)", p, v, l, err1, err2, err3)
	}
	// Moves on their own, as in the record.
	m, err := json.Marshal(rec.Moves)
	if err != nil || !strings.Contains(string(p), `"moves":`+string(m)+`,`) {
		t.Errorf("moves alone %s (%v), in the record %s", m, err, p)
	}
	var back []Move
	if err := json.Unmarshal(m, &back); err != nil || !reflect.DeepEqual(back, jsonFields(rec).Moves) {
		t.Errorf("moves read back %+v (%v)", back, err)
	}
	if err := json.Unmarshal([]byte(`[{"point":[1,1],"color":"black","think_ms":0,"left_ms":0,"captured":[]},{"x":1}]`), &back); err == nil || !strings.Contains(err.Error(), `unknown field "x"`) {
		t.Errorf("err = %v", err)
	}
}

func TestJSONLayout(t *testing.T) {
	rec := sampleRecords()["outer-open, timed, refused off-board move"]
	rec.Moves = append(rec.Moves[:2], Move{Color: rules.Black, Think: 2 * time.Second, Raw: "7,"})
	rec.Stderr = []string{"oops"}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format":2,"event":"Cup [2024] \\ final","round":3,"game":12,"rule":"outer-open","size":15,` +
		`"black":"alpha ]x[","white":"béta","end":"illegal move","detail":"off board 15,3",` +
		`"start":"2024-05-01T10:00:00.123456789+02:00","finish":"2024-05-01T10:01:35.123456789+02:00","stderr":["oops"],` +
		`"moves":[{"point":[0,0],"color":"black","think_ms":0,"left_ms":0,"opening":true},` +
		`{"point":[7,7],"color":"white","think_ms":1234,"left_ms":58766},` +
		`{"color":"black","think_ms":2000,"left_ms":0,"raw":"7,"}],"winner":"black"}`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

// Every key of the JSON form is snake_case: a field added to Record or Move
// without a tag shows up here under its Go name.
func TestJSONKeysAreSnakeCase(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !snake.MatchString(k) {
					t.Errorf("key %q is not snake_case", k)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for _, rec := range sampleRecords() {
		b, _ := json.Marshal(rec)
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		walk(v)
	}
}

func TestJSONReadsFormat1(t *testing.T) {
	// As the arena wrote records before formats were declared.
	const v1 = `{"Event":"legacy","Round":1,"Game":2,"Rule":"pente","Size":19,"Black":"a","White":"b",` +
		`"BlackAbout":"name=\"a\"","Moves":[{"Point":{"X":9,"Y":9},"Color":1,"Think":1500000,"Left":9998500000,"Opening":false},` +
		`{"Point":{"X":0,"Y":0},"Color":2,"Think":2000,"Left":0,"Opening":false,"Raw":"7,"}],` +
		`"Winner":1,"End":"illegal move","Detail":"malformed move \"7,\"","Start":"2026-11-23T23:45:05.190899677Z","Finish":"2026-11-23T23:45:06Z"}`
	var got Record
	if err := json.Unmarshal([]byte(v1), &got); err != nil {
		t.Fatal(err)
	}
	want := Record{Event: "legacy", Round: 1, Game: 2, Rule: "pente", Size: 19, Black: "a", White: "b", BlackAbout: `name="a"`,
		Moves: []Move{
			{Point: pt(9, 9), Color: rules.Black, Think: 1500 * time.Microsecond, Left: 9998500 * time.Microsecond},
			{Color: rules.White, Think: 2 * time.Microsecond, Raw: "7,"},
		},
		Winner: rules.Black, End: Illegal, Detail: `malformed move "7,"`,
		Start: time.Date(2026, 11, 23, 23, 45, 5, 190899677, time.UTC), Finish: time.Date(2026, 11, 23, 23, 45, 6, 0, time.UTC)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestJSONRefusals(t *testing.T) {
	good, _ := json.Marshal(sampleRecords()["time forfeit"])
	for _, c := range []struct{ name, from, to, want string }{
		{"newer format", `"format":2`, `"format":4`, "format 4 is not one this arena reads"},
		{"format as a string", `"format":2`, `"format":"2"`, `format "2" is not one`},
		{"unknown field", `"think_ms"`, `"thinkms"`, `unknown field "thinkms"`},
		{"colour as a number", `"color":"black"`, `"color":1`, "cannot unmarshal number"},
		{"colour misspelt", `"color":"black"`, `"color":"blak"`, `move 1: color "blak"`},
		{"winner misspelt", `"winner":"white"`, `"winner":"White"`, `winner "White"`},
		{"unknown end", `"end":"time"`, `"end":"resigned"`, `end "resigned" is not a termination`},
		{"aborted is never journaled", `"end":"time"`, `"end":"aborted"`, `end "aborted"`},
		{"point and raw", `"left_ms":0}`, `"left_ms":0,"raw":"x"}`, "move 1: both a \"point\" and a \"raw\""},
		{"neither point nor raw", `"point":[25,25],`, ``, "move 1: no \"point\" and no \"raw\""},
		{"negative think", `"think_ms":1000`, `"think_ms":-1`, "move 1: negative think_ms"},
		{"no moves", `"moves":[`, `"mooves":[`, `unknown field "mooves"`},
		{"format 1 with a misspelt field", `"format":2,"event"`, `"Evnt"`, `read as format 1 (the unversioned form): json: unknown field "Evnt"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Replace(string(good), c.from, c.to, 1)
			if in == string(good) {
				t.Fatalf("%q not in %s", c.from, good)
			}
			var r Record
			err := json.Unmarshal([]byte(in), &r)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one containing %q\n%s", err, c.want, in)
			}
		})
	}
}

// Whatever a journal line holds, a record read from it is written back in a
// form that reads as the same record.
func FuzzRecordJSON(f *testing.F) {
	for _, rec := range sampleRecords() {
		b, _ := json.Marshal(rec)
		f.Add(b)
	}
	f.Add([]byte(`{"format":2,"event":"","round":0,"game":0,"rule":"","size":0,"black":"","white":"","end":"five","start":"0001-01-01T00:00:00Z","finish":"0001-01-01T00:00:00Z","messages":[],"stderr":[],"moves":[{"point":[1,1],"color":"black","think_ms":0,"left_ms":0,"captured":[]}],"winner":"none"}`))
	f.Add([]byte(`{"Event":"x","Moves":[{"Point":{"X":1,"Y":2},"Color":2,"Think":5}],"Winner":2,"End":"time"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Record
		if json.Unmarshal(b, &r) != nil {
			return
		}
		out, err := json.Marshal(&r)
		if err != nil {
			t.Fatalf("read %s but cannot write it back: %v", b, err)
		}
		var again Record
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("cannot read back %s: %v", out, err)
		}
		r = *jsonFields(&r)
		if !again.Start.Equal(r.Start) || !again.Finish.Equal(r.Finish) {
			t.Fatalf("times changed on rewriting: %v %v, then %v %v", r.Start, r.Finish, again.Start, again.Finish)
		}
		r.Start, r.Finish, again.Start, again.Finish = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if !reflect.DeepEqual(&again, &r) {
			t.Fatalf("changed on rewriting:\n%+v\n%+v", r, again)
		}
	})
}

// benchRecord is a long game as the journal holds it: 120 timed moves.
func benchRecord() *Record {
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	r := &Record{Event: "bench", Round: 3, Game: 17, Rule: "freestyle", Size: 15, Black: "alpha", White: "beta",
		BlackAbout: `name="alpha", version="1.0"`, WhiteAbout: `name="beta", version="2.1"`,
		Winner: rules.Black, End: Five, Start: start, Finish: start.Add(time.Minute)}
	for i := range 120 {
		r.Moves = append(r.Moves, Move{Point: pt(i%15, i/15), Color: []rules.Color{rules.Black, rules.White}[i%2],
			Think: time.Duration(i) * 7 * time.Millisecond, Left: time.Duration(600-i) * time.Second})
	}
	return r
}

// BenchmarkRecordJSON: writing a journal line, reading it back, reading a
// format 1 line of the same game, and, for scale, Go's plain decoding of
// that format 1 line (what reading cost before formats were declared).
func BenchmarkRecordJSON(b *testing.B) {
	rec := benchRecord()
	v2, err := json.Marshal(rec)
	if err != nil {
		b.Fatal(err)
	}
	v1 := recordV1{Event: rec.Event, Round: rec.Round, Game: rec.Game, Rule: rec.Rule, Size: rec.Size, Black: rec.Black, White: rec.White,
		BlackAbout: rec.BlackAbout, WhiteAbout: rec.WhiteAbout, Winner: rec.Winner, End: rec.End, Start: rec.Start, Finish: rec.Finish}
	for _, m := range rec.Moves {
		v1.Moves = append(v1.Moves, moveV1{Point: m.Point, Color: m.Color, Think: m.Think, Left: m.Left})
	}
	v1b, _ := json.Marshal(v1)
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range []struct {
		name string
		line []byte
	}{{"read-format2", v2}, {"read-format1", v1b}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				var r Record
				if err := json.Unmarshal(c.line, &r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("plain-decode-format1", func(b *testing.B) {
		for b.Loop() {
			var r recordV1
			if err := json.Unmarshal(v1b, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
