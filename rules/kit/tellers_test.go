package kit_test

import (
	"errors"
	"strconv"
	"testing"

	"fray"
	"fray/rules/kit"
)

// counter is a system for the tests of the tellers: its state counts
// what the "hit" events took, and an event of the type "broken" does not
// apply.
type counter struct{ fray.System }

type counted struct{ lost int }

func (c *counted) Clone() fray.State { d := *c; return &d }

type hitData struct {
	Who string `json:"who"`
	N   int    `json:"n"`
}

func (counter) Apply(st fray.State, ev fray.Event) error {
	if ev.Type == "broken" {
		return errors.New("does not apply")
	}
	var d hitData
	if err := ev.Decode(&d); err != nil {
		return err
	}
	st.(*counted).lost += d.N
	return nil
}

func tale(t *testing.T, typ string, data any, st fray.State) fray.Tale {
	t.Helper()
	ev, err := fray.NewEvent(typ, data)
	if err != nil {
		t.Fatal(err)
	}
	return fray.Tale{Event: ev, State: st}
}

func TestTellers(t *testing.T) {
	tellers := kit.Tellers[counter]{
		"hit": kit.Tells(func(_ counter, t fray.Tale, d hitData) fray.Told {
			return fray.Told{Text: d.Who + " loses " + strconv.Itoa(d.N) + " (" + t.Event.Type + ")"}
		}),
		"heal":  kit.Tells(func(_ counter, t fray.Tale, d hitData) fray.Told { return fray.Told{Text: d.Who + " heals"} }),
		"start": kit.Says[counter]("The fight starts."),
	}
	cases := []struct {
		name string
		tale fray.Tale
		want string
		ok   bool
	}{
		{"by its type", tale(t, "hit", hitData{Who: "Ann", N: 3}, nil), "Ann loses 3 (hit)", true},
		{"another type", tale(t, "heal", hitData{Who: "Bo"}, nil), "Bo heals", true},
		{"a type not in the table", tale(t, "miss", hitData{Who: "Ann"}, nil), "", false},
		{"a payload that does not decode", tale(t, "hit", map[string]string{"n": "three"}, nil), "", false},
		{"a type said without its payload", fray.Tale{Event: fray.Event{Type: "start"}}, "The fight starts.", true},
		{"a type said whatever its payload", tale(t, "start", hitData{Who: "Ann"}, nil), "The fight starts.", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			told, ok := tellers.Tell(counter{}, c.tale)
			if told.Text != c.want || ok != c.ok {
				t.Errorf("Tell = %q, %v; want %q, %v", told.Text, ok, c.want, c.ok)
			}
		})
	}
}

func TestAround(t *testing.T) {
	st := &counted{lost: 2}
	before, after, ok := kit.Around[*counted](counter{}, tale(t, "hit", hitData{N: 5}, st))
	if !ok || before != st || before.lost != 2 || after.lost != 7 {
		t.Fatalf("Around = %v, %v, %v; want the state (2 lost) and a clone with 7 lost", before, after, ok)
	}
	if st.lost != 2 {
		t.Errorf("the tale's state changed: %d lost", st.lost)
	}
	if _, _, ok := kit.Around[*counted](counter{}, tale(t, "hit", hitData{N: 5}, nil)); ok {
		t.Error("Around found a state in a tale without one")
	}
	if _, _, ok := kit.Around[*counted](counter{}, tale(t, "broken", hitData{N: 5}, st)); ok {
		t.Error("Around reported an event that does not apply")
	}
}
