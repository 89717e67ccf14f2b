package season

import (
	"slices"
	"testing"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/league"
)

// TestPairDivision: a division's tables are the same for the same league
// and season (the pairing seed), named in order, every player seated;
// another season pairs 3-player rounds otherwise.
func TestPairDivision(t *testing.T) {
	cfg, err := config.Parse([]byte(`
[mail]
address = "lexio@localhost"
secret = "0123456789abcdef0123456789abcdef"
[embedded]
enabled = true
[[league]]
name = "Trio Club"
table_size = 3
[[league.division]]
name = "A"
players = ["a@x.org", "b@x.org", "c@x.org", "d@x.org", "e@x.org", "f@x.org"]
`))
	if err != nil {
		t.Fatal(err)
	}
	l := cfg.League("Trio Club")
	d := league.Division{Name: "A", Players: l.Divisions[0].Players}
	one, again := pairDivision(l, 1, 0, d), pairDivision(l, 1, 0, d)
	if len(one) == 0 || !slices.EqualFunc(one, again, func(a, b SeasonTable) bool {
		return a.Name == b.Name && slices.Equal(a.Players, b.Players)
	}) {
		t.Fatalf("the same season paired twice differs:\n%v\n%v", one, again)
	}
	seated := map[string]int{}
	for k, st := range one {
		if want := TableName("Trio Club", 1, 1, k+1); st.Name != want {
			t.Errorf("table %d named %q, want %q", k, st.Name, want)
		}
		if len(st.Players) != 3 {
			t.Errorf("%s seats %d players, want 3", st.Name, len(st.Players))
		}
		for _, p := range st.Players {
			seated[p]++
		}
	}
	for _, p := range d.Players {
		if seated[p] == 0 {
			t.Errorf("%s has no table", p)
		}
	}
	if PairingSeed("Trio Club", 1) == PairingSeed("Trio Club", 2) || PairingSeed("Trio Club", 1) == PairingSeed("Duo", 1) {
		t.Error("the pairing seed does not change with the league and season")
	}
}
