package engine

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"strings"

	"fray"
)

// IDLen is the length of a combatant id in characters.
const IDLen = 8

// idEncoding spells ids in lower-case base32 without padding.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewCombatantID returns the id of the combatant added by the event
// numbered seq of an encounter whose log seed is seed; try numbers the
// attempts, from 0, when an id is already taken. Ids are derived, not
// counted, so that a player who sees some of them learns nothing of how
// many others there are, and they do not draw on the dice's random
// source, so that adding a combatant never changes a later roll.
func NewCombatantID(seed uint64, seq, try int) fray.CombatantID {
	var b [24]byte
	binary.BigEndian.PutUint64(b[0:], seed)
	binary.BigEndian.PutUint64(b[8:], uint64(seq))
	binary.BigEndian.PutUint64(b[16:], uint64(try))
	sum := sha256.Sum256(b[:])
	return fray.CombatantID(idEncoding.EncodeToString(sum[:])[:IDLen])
}

// CheckCombatantID reports whether id has the form NewCombatantID gives.
func CheckCombatantID(id fray.CombatantID) error {
	if len(id) != IDLen || strings.Trim(string(id), "abcdefghijklmnopqrstuvwxyz234567") != "" {
		return fray.Errorf(fray.EINVALID, "%q is not a combatant id (%d letters and digits 2–7).", Clip(string(id)), IDLen)
	}
	return nil
}

// freeID returns an id for the combatant added by event seq that no
// combatant of enc, present or gone, has, nor any id in taken.
func freeID(enc *fray.Encounter, seed uint64, seq int, taken map[fray.CombatantID]bool) fray.CombatantID {
	for try := 0; ; try++ {
		id := NewCombatantID(seed, seq, try)
		if taken[id] || enc.NameOf(id) != "" {
			continue
		}
		return id
	}
}

// stamp prepares an event of a new step for the log, before it is
// applied to the working state enc: an added combatant without an id gets
// one, the event is of format 3 (fray.FormatIDs), its rolls for
// combatants say whose they are (Roll.Who), and About records the
// combatants the event concerns.
//
// The About lists of one step share buf's backing array, so that a step
// allocates one list however many events it records; stamp returns buf
// grown by this event's list.
func stamp(enc *fray.Encounter, seed uint64, ev *fray.Event, taken map[fray.CombatantID]bool, buf []fray.CombatantID) ([]fray.CombatantID, error) {
	if ev.Type == fray.EventAdded {
		var d fray.AddedData
		if err := ev.Decode(&d); err != nil {
			return buf, err
		}
		if d.Combatant.ID == "" {
			d.Combatant.ID = freeID(enc, seed, ev.Seq, taken)
			fresh, err := fray.NewEvent(ev.Type, d, ev.Rolls...)
			if err != nil {
				return buf, err
			}
			fresh.Seq, fresh.Step, fresh.Command, fresh.Odds = ev.Seq, ev.Step, ev.Command, ev.Odds
			*ev = fresh
		}
		taken[d.Combatant.ID] = true
	}
	ev.Format = fray.FormatIDs
	for i := range ev.Rolls {
		if ev.Rolls[i].Who == "" {
			ev.Rolls[i].Who = enc.IDOf(ev.Rolls[i].For)
		}
	}
	start := len(buf)
	buf = appendAbout(buf, enc, *ev)
	if len(buf) > start {
		ev.About = buf[start:len(buf):len(buf)]
	}
	return buf, nil
}

// appendAbout appends to buf the ids of the combatants an event made by
// fray.NewEvent concerns (its About), read from what its payload declares (see fray.TagWho) and from
// whom its rolls are for, resolved against enc as it is before the event
// applies. A declared name that no combatant of enc has, present or gone,
// is not a combatant (a group's name, say) and adds nothing.
func appendAbout(buf []fray.CombatantID, enc *fray.Encounter, ev fray.Event) []fray.CombatantID {
	names, ids := ev.Declared()
	start := len(buf)
	out := buf
	add := func(id fray.CombatantID) {
		if id == "" {
			return
		}
		for _, x := range out[start:] {
			if x == id {
				return
			}
		}
		out = append(out, id)
	}
	for _, id := range ids {
		add(id)
	}
	for _, n := range names {
		add(enc.IDOf(n))
	}
	for _, r := range ev.Rolls {
		add(r.Who)
		add(enc.IDOf(r.For))
	}
	return out
}
