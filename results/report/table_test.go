package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku-arena/results/standings"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func reports(t *testing.T) map[string]*Report {
	t.Helper()
	// Names that need escaping in HTML and Markdown.
	rr, err := NewReport("RR <test>", []string{"alpha", "beta|2", "<gamma>", "delta & co"}, rr4(), standings.DefaultOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	sw, err := NewReport("Swiss", []string{"e0", "e1", "e2", "e3", "e4"}, swiss5(), standings.DefaultOptions(true))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*Report{"roundrobin": rr, "swiss": sw}
}

func TestTableGolden(t *testing.T) {
	for name, r := range reports(t) {
		for _, f := range []TableFormat{Text, Markdown, CSV, JSON, HTML} {
			var st, ct bytes.Buffer
			if err := r.WriteStandings(&st, f); err != nil {
				t.Fatalf("%s %s standings: %v", name, f, err)
			}
			if err := r.WriteCrosstable(&ct, f); err != nil {
				t.Fatalf("%s %s crosstable: %v", name, f, err)
			}
			golden(t, "table_"+name+"_standings"+f.Ext(), st.Bytes())
			golden(t, "table_"+name+"_crosstable"+f.Ext(), ct.Bytes())
		}
	}
}

func TestTableHTMLEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := reports(t)["roundrobin"].WriteStandings(&b, HTML); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); strings.Contains(s, "<gamma>") || !strings.Contains(s, "&lt;gamma&gt;") || strings.Contains(s, "RR <test>") {
		t.Errorf("names not escaped:\n%s", s)
	}
}

func TestTableCSVAndJSONParse(t *testing.T) {
	r := reports(t)["swiss"]
	var c, j bytes.Buffer
	if err := r.WriteStandings(&c, CSV); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&c).ReadAll()
	legend := r.StandingsLegend()
	if err != nil || len(recs) != 1+len(r.Standings)+len(legend.Columns)+1 || recs[1][1] != "e4" {
		t.Fatalf("csv: %v, %q", err, recs)
	}
	// Every column of the header is explained in the legend rows.
	explained := map[string]bool{}
	for _, rec := range recs[1+len(r.Standings):] {
		if rec[0] != "legend" {
			t.Fatalf("row after the standings: %q", rec)
		}
		explained[rec[1]] = rec[2] != ""
	}
	for _, h := range recs[0] {
		if !explained[h] {
			t.Errorf("column %q has no legend", h)
		}
	}
	if err := r.WriteStandings(&j, JSON); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Standings []struct {
			Name      string             `json:"name"`
			Points    float64            `json:"points"`
			Tiebreaks map[string]float64 `json:"tiebreaks"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(j.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if s := back.Standings[1]; s.Name != "e0" || s.Points != 2 || s.Tiebreaks["buchholz-cut1"] != 4.5 {
		t.Errorf("json: %+v", s)
	}
}

func TestFormatPoints(t *testing.T) {
	for p, want := range map[float64]string{0: "0", 0.5: "½", 1: "1", 2.5: "2½", 10: "10", 0.25: "0.25"} {
		if got := formatPoints(p); got != want {
			t.Errorf("formatPoints(%g) = %q, want %q", p, got, want)
		}
	}
}
