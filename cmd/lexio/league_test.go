package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/leagues"
)

const leagueConfig = `
[[league]]
name = "main"
[[league]]
name = "club"
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost", "carol@localhost"]
`

// TestLeagueCommands: `lexio league list|show|start|standings` (LEAGUES
// §7.2, §9.3) on a SQLite file: a season started once, its tables shown,
// the standings as one JSON array with the contract's keys and types
// (ratings rounded to 2 decimals, 1500/350 without one); each mistake
// refused with a reason and a failing status.
func TestLeagueCommands(t *testing.T) {
	dir, cfg := adminConfig(t, leagueConfig)

	code, out, errOut := lexio(t, "league", "list", "-c", cfg)
	if code != 0 || !strings.Contains(out, "main") || !strings.Contains(out, "no seasons") || !strings.Contains(out, "none yet") {
		t.Errorf("list: %d %q %q", code, out, errOut)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"standings", "club"}, 1, "the league has no season yet; `lexio league start club` starts the first"},
		{[]string{"start", "nosuch"}, 1, `no league "nosuch"`},
		{[]string{"start", "main"}, 1, `league "main" has no seasons`},
		{[]string{"start"}, 2, "usage: lexio league start LEAGUE"},
		{[]string{"standings", "--season", "-1", "club"}, 2, "seasons are numbered from 1"},
	} {
		code, _, errOut := lexio(t, append([]string{"league", tc.args[0], "-c", cfg}, tc.args[1:]...)...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: %d %q, want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}

	code, out, errOut = lexio(t, "league", "start", "-c", cfg, "club")
	if code != 0 || !strings.Contains(out, "season 1 started, 3 tables") || !strings.Contains(out, "club-1-1-1") {
		t.Fatalf("start: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := lexio(t, "league", "start", "-c", cfg, "club"); code != 1 || !strings.Contains(errOut, "season 1 is running") {
		t.Errorf("second start: %d %q", code, errOut)
	}
	code, out, _ = lexio(t, "league", "show", "-c", cfg, "club")
	if code != 0 || !strings.Contains(out, "1 running (0 of 3 tables over") || !strings.Contains(out, "club-1-1-3") ||
		!strings.Contains(out, "top (3): alice@localhost bob@localhost carol@localhost") {
		t.Errorf("show: %d\n%s", code, out)
	}

	// Bob has a rating in the pool of the league's variant.
	st, err := store.Open(context.Background(), store.Options{SQLitePath: filepath.Join(dir, "lexio.db")})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Tx(context.Background(), func(tx *store.Tx) error {
		p, err := tx.PlayerByAddress("bob@localhost")
		if err != nil {
			return err
		}
		return leagues.SaveRating(tx, &store.PlayerRating{Variant: "lexio", PlayerID: p.ID, Rating: 1612.3456, RD: 80.004, Volatility: 0.06, Games: 3})
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	code, out, errOut = lexio(t, "league", "standings", "-c", cfg, "--json", "club")
	if code != 0 {
		t.Fatalf("standings --json: %d %q", code, errOut)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	var rows []map[string]any
	if err := dec.Decode(&rows); err != nil {
		t.Fatalf("standings --json: %v\n%s", err, out)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Errorf("standings --json: more than one JSON value:\n%s", out)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3:\n%s", len(rows), out)
	}
	ints := []string{"rank", "played", "won", "tied", "lost", "points", "spread", "points_for"}
	var players []string
	for i, r := range rows {
		for _, k := range []string{"division", "player", "name"} {
			if _, ok := r[k].(string); !ok {
				t.Errorf("row %d: %s = %#v, want a string", i, k, r[k])
			}
		}
		for _, k := range ints {
			n, ok := r[k].(json.Number)
			if _, err := n.Int64(); !ok || err != nil {
				t.Errorf("row %d: %s = %#v, want an integer", i, k, r[k])
			}
		}
		for _, k := range []string{"rating", "rd"} {
			if _, ok := r[k].(json.Number); !ok {
				t.Errorf("row %d: %s = %#v, want a number", i, k, r[k])
			}
		}
		if r["rank"] != json.Number([]string{"1", "2", "3"}[i]) || r["division"] != "top" {
			t.Errorf("row %d: rank %v division %v", i, r["rank"], r["division"])
		}
		players = append(players, r["player"].(string))
		want := [2]json.Number{"1500", "350"}
		if r["player"] == "bob@localhost" {
			want = [2]json.Number{"1612.35", "80"}
			if r["name"] != "Bob" {
				t.Errorf("bob's name %v", r["name"])
			}
		}
		if r["rating"] != want[0] || r["rd"] != want[1] {
			t.Errorf("row %d (%v): rating %v rd %v, want %v", i, r["player"], r["rating"], r["rd"], want)
		}
	}
	// Nobody has played: level on everything, by address.
	if want := []string{"alice@localhost", "bob@localhost", "carol@localhost"}; !slices.Equal(players, want) {
		t.Errorf("players %v, want %v", players, want)
	}

	code, out, _ = lexio(t, "league", "standings", "-c", cfg, "club", "--season", "1")
	if code != 0 || !strings.Contains(out, "division top") || !strings.Contains(out, "1612.35") || bytes.Count([]byte(out), []byte("@localhost")) != 3 {
		t.Errorf("standings: %d\n%s", code, out)
	}
	if code, _, errOut := lexio(t, "league", "standings", "-c", cfg, "--season", "2", "club"); code != 1 || !strings.Contains(errOut, `league "club" has no season 2`) {
		t.Errorf("season 2: %d %q", code, errOut)
	}
	// close adjudicates the three tables now; a second close is refused.
	code, out, errOut = lexio(t, "league", "close", "-c", cfg, "club")
	if code != 0 || !strings.Contains(out, "league club: season 1 closed") {
		t.Errorf("close: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := lexio(t, "league", "close", "-c", cfg, "club"); code != 1 || !strings.Contains(errOut, "season 1 is closed already") {
		t.Errorf("second close: %d %q", code, errOut)
	}
	code, out, _ = lexio(t, "league", "show", "-c", cfg, "club")
	if code != 0 || !strings.Contains(out, "1 over") {
		t.Errorf("show after close: %d\n%s", code, out)
	}
	code, out, _ = lexio(t, "league", "standings", "-c", cfg, "--json", "club")
	if code != 0 || strings.Count(out, `"played":2`) != 3 {
		t.Errorf("standings after close: every player played their 2 games: %d\n%s", code, out)
	}
	code, out, _ = lexio(t, "help", "league")
	if code != 0 || !strings.Contains(out, "lexio league standings [--season N] [--json] LEAGUE") || strings.Contains(out, "lexio table") {
		t.Errorf("help league: %d\n%s", code, out)
	}
}
