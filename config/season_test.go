package config

import (
	"strings"
	"testing"
)

const seasonBase = "[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n"

// TestSeasonDefaults: a league's season keys default as LEAGUES §7.1 says.
func TestSeasonDefaults(t *testing.T) {
	c, err := Parse([]byte(seasonBase + "[[league]]\nname = \"autumn\"\n[[league.division]]\nname = \"premier\"\nplayers = [\"Ann@X.org\", \"bob@y.org\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	l := c.League("autumn")
	if !l.Seasons() || l.TableSize != 2 || l.GamesPerPair != 1 || l.SeasonDays != 90 || *l.Promote != 2 || *l.Relegate != 2 ||
		l.DivisionSize != 12 || !*l.Rated || l.StandingsDigest != "weekly" || len(l.Points) != 3 || l.Points[0] != 2 || l.Points[1] != 1 || l.Points[2] != 0 {
		t.Fatalf("defaults: %+v", l.Season)
	}
	if l.Divisions[0].Players[0] != "ann@x.org" {
		t.Errorf("players are lowercased: %v", l.Divisions[0].Players)
	}
	if c.RatingTau != 0.5 {
		t.Errorf("rating_tau %v", c.RatingTau)
	}
	c, err = Parse([]byte(seasonBase + "[[league]]\nname = \"flat\"\npromote = 0\nrelegate = 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if l := c.League("flat"); *l.Promote != 0 || *l.Relegate != 0 || l.Seasons() {
		t.Fatalf("promote = 0 must stay 0: %+v", l.Season)
	}
}

// TestSeasonInvalid: every bad season key is named, all at once.
func TestSeasonInvalid(t *testing.T) {
	cfg := "rating_tau = 3\n" + seasonBase + `[[league]]
name = "bad"
variant = "lexico"
multipliers = false
table_size = 3
games_per_pair = 3
season_days = -1
points = [1, 2, 0]
promote = -1
division_size = 2
standings_digest = "daily"
[[league.division]]
name = "a"
players = ["ann@x.org", "not an address"]
[[league.division]]
name = "a"
players = ["ann@x.org"]
`
	_, err := Parse([]byte(cfg))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"rating_tau 3", "lexico is for 2 players", "games_per_pair 3", "season_days -1", "points [1 2 0]",
		"promote -1", "division_size 2: at least table_size (3)", `standings_digest "daily"`,
		`division "a" defined twice`, `player "not an address" is not a bare email address`,
		`player "ann@x.org" is in division "a" and in "a"`, `division "a": 1 players, want at least 2`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}
	_, err = Parse([]byte(seasonBase + "[[league]]\nname = \"x\"\ntable_size = 3\ngames_per_pair = 2\n"))
	if err == nil || !strings.Contains(err.Error(), "games_per_pair = 2 is for 2-player tables") {
		t.Errorf("games_per_pair 2 with 3 a table: %v", err)
	}
	_, err = Parse([]byte(seasonBase + "[[league]]\nname = \"x\"\nrounds = 2\n"))
	if err == nil || !strings.Contains(err.Error(), "rounds 2") {
		t.Errorf("rounds with 2 a table: %v", err)
	}
}
