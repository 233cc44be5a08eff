package engine

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"fray"
)

// Command words every system shares and handles through DecideShared.
const (
	CmdAdd    = "add"    // add a combatant
	CmdRemove = "remove" // remove a combatant
	CmdSet    = "set"    // change a setting
	CmdNote   = "note"   // note something about a combatant
	CmdReveal = "reveal" // show a hidden combatant to players
	CmdRename = "rename" // give a combatant another name
)

// Keys of the add command that every system accepts; any other key of add
// must be a stat the system names.
const (
	KeySide   = "side"   // pc or npc
	KeyKind   = "kind"   // character, group or environment
	KeyGroup  = "group"  // the group the combatant belongs to
	KeyAware  = "aware"  // no: present but without a turn
	KeyHidden = "hidden" // yes: known to the GM only
	KeyNotes  = "notes"  // free text for the GM
	KeyBefore = "before" // a place in the order: just before NAME
	KeyAfter  = "after"  // a place in the order: just after NAME
)

// MaxNameLen is the longest combatant name, in bytes.
const MaxNameLen = 64

// MaxCombatants is the most combatants one encounter may hold.
const MaxCombatants = 500

// Spec tells the shared helpers what a system accepts.
type Spec struct {
	// Stats lists the stat names add accepts (lower case). A stat key is
	// a key=value word whose value is a whole number.
	Stats []string
	// Settings lists, by key, the values set accepts; the first is the
	// default.
	Settings map[string][]string
	// Placement reports whether add takes before= and after= (a place in
	// the order of play).
	Placement bool
	// AddOpts declares the further options add takes in the system
	// (role=, weapon=, …); the system reads them itself.
	AddOpts []fray.Param
}

// DecideShared decides the commands every system shares: add, remove, set,
// note, reveal, rename, condition and clear. handled is false for any other command, which the
// system then decides itself.
func DecideShared(enc *fray.Encounter, cmd fray.Command, s Spec) (evs []fray.Event, handled bool, err error) {
	var ev fray.Event
	switch cmd.Name {
	case CmdAdd:
		ev, err = decideAdd(enc, cmd, s)
	case CmdRemove:
		var c *fray.Combatant
		if c, err = enc.Lookup(cmd.Arg(0)); err == nil {
			ev, err = fray.NewEvent(fray.EventRemoved, fray.NameData{Who: c.ID})
		}
	case CmdSet:
		ev, err = decideSet(cmd, s)
	case CmdNote:
		ev, err = decideNote(enc, cmd)
	case CmdCondition:
		ev, err = decideCondition(enc, cmd)
	case CmdClear:
		ev, err = decideClear(enc, cmd)
	case CmdReveal:
		var c *fray.Combatant
		if c, err = enc.Lookup(cmd.Arg(0)); err == nil {
			if !c.Hidden {
				return nil, true, fray.Errorf(fray.EINVALID, "%s is not hidden.", c)
			}
			ev, err = fray.NewEvent(fray.EventRevealed, fray.NameData{Who: c.ID})
		}
	case CmdRename:
		ev, err = decideRename(enc, cmd)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return []fray.Event{ev}, true, nil
}

// decideRename decides rename NAME NEWNAME. The new name is checked as
// add checks a name (CheckCombatant), and may not be another present
// combatant's, without regard to case; a change of case alone is allowed.
func decideRename(enc *fray.Encounter, cmd fray.Command) (fray.Event, error) {
	c, err := enc.Lookup(cmd.Arg(0))
	if err != nil {
		return fray.Event{}, err
	}
	to := fray.NormName(cmd.Arg(1))
	if to == c.Name {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "%s is already called that.", c)
	}
	if o := enc.Find(to); o != nil && o != c {
		return fray.Event{}, fray.Errorf(fray.ECONFLICT, "There is already a combatant named %q.", o)
	}
	n := *c
	n.Name = to
	if err := CheckCombatant(&n); err != nil {
		return fray.Event{}, err
	}
	return fray.NewEvent(fray.EventRenamed, fray.RenamedData{ID: c.ID, Name: c.Name, To: to})
}

func decideAdd(enc *fray.Encounter, cmd fray.Command, s Spec) (fray.Event, error) {
	name := fray.NormName(cmd.Arg(0))
	if err := CheckName(name); err != nil {
		return fray.Event{}, err
	}
	if c := enc.Find(name); c != nil {
		return fray.Event{}, fray.Errorf(fray.ECONFLICT, "There is already a combatant named %q.", c)
	}
	if len(enc.Combatants) >= MaxCombatants {
		return fray.Event{}, fray.Errorf(fray.ETOOLARGE, "The encounter already has %d combatants, the limit (MaxCombatants).", MaxCombatants)
	}
	c := fray.Combatant{Name: name, Kind: fray.KindCharacter, Side: fray.SideNPC}
	d := fray.AddedData{}
	for _, k := range slices.Sorted(maps.Keys(cmd.Opts)) {
		v := cmd.Opts[k]
		switch k {
		case KeySide:
			switch strings.ToLower(v) {
			case fray.SidePC, fray.SideNPC:
				c.Side = strings.ToLower(v)
			default:
				return fray.Event{}, fray.Errorf(fray.EINVALID, "side=%s is not a side; use side=pc or side=npc.", clip(v))
			}
		case KeyKind:
			switch strings.ToLower(v) {
			case fray.KindCharacter, fray.KindGroup, fray.KindEnvironment:
				c.Kind = strings.ToLower(v)
			default:
				return fray.Event{}, fray.Errorf(fray.EINVALID, "kind=%s is not a kind; use kind=character, kind=group or kind=environment.", clip(v))
			}
		case KeyGroup:
			if err := CheckName(v); err != nil {
				return fray.Event{}, fray.Errorf(fray.EINVALID, "group=: %s", fray.Quote(err))
			}
			c.Group = v
		case KeyAware, KeyHidden:
			b, err := ParseYesNo(k, v)
			if err != nil {
				return fray.Event{}, err
			}
			if k == KeyAware {
				c.Unaware = !b
			} else {
				c.Hidden = b
			}
		case KeyNotes:
			if len(v) > 1000 {
				return fray.Event{}, fray.Errorf(fray.ETOOLARGE, "notes= is longer than 1000 bytes.")
			}
			c.Notes = v
		case KeyBefore, KeyAfter:
			if !s.Placement {
				return fray.Event{}, fray.Errorf(fray.EINVALID, "add does not take %s= in these rules.", k)
			}
			o, err := enc.Lookup(v)
			if err != nil {
				return fray.Event{}, err
			}
			if k == KeyBefore {
				d.Before = o.ID
			} else {
				d.After = o.ID
			}
		default:
			if !slices.Contains(s.Stats, k) {
				return fray.Event{}, fray.Errorf(fray.EINVALID, "add does not know the key %s=; it takes side, kind, group, aware, hidden, notes%s and the stats %s.", k, placementKeys(s), strings.Join(s.Stats, ", "))
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < -1000 || n > 1000 {
				return fray.Event{}, fray.Errorf(fray.EINVALID, "%s=%s is not a whole number from -1000 to 1000.", k, clip(v))
			}
			if c.Stats == nil {
				c.Stats = map[string]int{}
			}
			c.Stats[k] = n
		}
	}
	if d.Before != "" && d.After != "" {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "Give before= or after=, not both.")
	}
	if c.Kind == fray.KindEnvironment && (d.Before != "" || d.After != "") {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "The environment always acts last; it takes no before= or after=.")
	}
	if err := CheckCombatant(&c); err != nil {
		return fray.Event{}, err
	}
	d.Combatant = c
	return fray.NewEvent(fray.EventAdded, d)
}

func placementKeys(s Spec) string {
	if s.Placement {
		return ", before, after"
	}
	return ""
}

func decideSet(cmd fray.Command, s Spec) (fray.Event, error) {
	if len(cmd.Args) != 0 || len(cmd.Opts) != 1 {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "set takes one KEY=VALUE, such as set %s.", exampleSetting(s))
	}
	settings := settingsOf(s)
	for k, v := range cmd.Opts {
		vals, ok := settings[k]
		if !ok {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "There is no setting %s=; the settings are %s.", k, strings.Join(slices.Sorted(maps.Keys(settings)), ", "))
		}
		if !slices.Contains(vals, v) {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "%s=%s is not allowed; use one of %s.", k, clip(v), strings.Join(vals, ", "))
		}
		return fray.NewEvent(fray.EventSet, fray.SetData{Key: k, Value: v})
	}
	return fray.Event{}, nil
}

func exampleSetting(s Spec) string {
	settings := settingsOf(s)
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		return k + "=" + settings[k][0]
	}
	return "KEY=VALUE"
}

func decideNote(enc *fray.Encounter, cmd fray.Command) (fray.Event, error) {
	text, hasText := cmd.Opts["text"]
	if len(cmd.Args) < 1 || (!hasText && len(cmd.Args) < 2) {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "note takes a name and a text: note NAME TEXT.")
	}
	c, err := enc.Lookup(cmd.Args[0])
	if err != nil {
		return fray.Event{}, err
	}
	if !hasText {
		text = strings.Join(cmd.Args[1:], " ")
	} else if len(cmd.Args) > 1 {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "Give the note as text= or after the name, not both.")
	}
	if len(text) > 1000 {
		return fray.Event{}, fray.Errorf(fray.ETOOLARGE, "The note is longer than 1000 bytes.")
	}
	return fray.NewEvent(fray.EventNoted, fray.NoteData{Who: c.ID, Note: text})
}

// ApplyShared applies the events DecideShared produces to enc. handled is
// false for any other event type. For EventAdded it returns the decoded
// payload, and for EventRemoved the removed combatant's id, so that the
// system can place or drop the combatant in its order of play. A system
// whose state refers to combatants by id (as every system's should) has
// nothing to do for EventRenamed.
func ApplyShared(enc *fray.Encounter, ev fray.Event) (added *fray.AddedData, removed fray.CombatantID, handled bool, err error) {
	switch ev.Type {
	case fray.EventAdded:
		var d fray.AddedData
		if err := ev.Decode(&d); err != nil {
			return nil, "", true, err
		}
		if err := CheckCombatant(&d.Combatant); err != nil {
			return nil, "", true, fray.Errorf(fray.EINVALID, "Event %d adds a combatant the rules refuse: %s", ev.Seq, fray.Quote(err))
		}
		if enc.Find(d.Combatant.Name) != nil {
			return nil, "", true, fray.Errorf(fray.EINVALID, "Event %d adds %q, who is already present.", ev.Seq, fray.Mention(d.Combatant.Name))
		}
		c := d.Combatant.Clone()
		if c.ID == "" {
			// A log of format version 1 kept no ids: the combatant gets
			// one derived from the event, the same at every replay.
			c.ID = freeID(enc, 0, ev.Seq, nil)
			d.Combatant.ID = c.ID
		} else if enc.NameOf(c.ID) != "" {
			return nil, "", true, fray.Errorf(fray.EINVALID, "Event %d adds %q with the id %s, which is taken.", ev.Seq, c, c.ID)
		}
		enc.Combatants = append(enc.Combatants, c)
		return &d, "", true, nil
	case fray.EventRemoved:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return nil, "", true, err
		}
		i := slices.IndexFunc(enc.Combatants, func(c *fray.Combatant) bool { return c.ID == d.Who })
		if i < 0 {
			return nil, "", true, fray.Errorf(fray.EINVALID, "Event %d removes %s, who is not present.", ev.Seq, d.Who)
		}
		gone := enc.Combatants[i]
		enc.Gone = append(enc.Gone, fray.Departed{ID: gone.ID, Name: gone.Name, Side: gone.Side, Hidden: gone.Hidden})
		enc.Combatants = slices.Delete(enc.Combatants, i, i+1)
		dropAnchoredTo(enc, gone.ID)
		return nil, gone.ID, true, nil
	case fray.EventRenamed:
		var d fray.RenamedData
		if err := ev.Decode(&d); err != nil {
			return nil, "", true, err
		}
		c := enc.ByID(d.ID)
		to := fray.NormName(d.To)
		if c == nil {
			return nil, "", true, fray.Errorf(fray.EINVALID, "Event %d renames the combatant %s, who is not present.", ev.Seq, d.ID)
		}
		if o := enc.Find(to); o != nil && o != c {
			return nil, "", true, fray.Errorf(fray.EINVALID, "Event %d renames %q to %q, the name of another.", ev.Seq, c, fray.Mention(to))
		}
		n := *c
		n.Name = to
		if to == "" || CheckCombatant(&n) != nil {
			return nil, "", true, fray.Errorf(fray.EINVALID, "Event %d renames %q to a name the rules refuse.", ev.Seq, c)
		}
		c.Name = to
		renameIn(enc, c.ID, to)
		return nil, "", true, nil
	case fray.EventCondition, fray.EventCleared:
		return nil, "", true, applyCondition(enc, ev)
	case fray.EventSet:
		var d fray.SetData
		if err := ev.Decode(&d); err != nil {
			return nil, "", true, err
		}
		if enc.Settings == nil {
			enc.Settings = map[string]string{}
		}
		enc.Settings[d.Key] = d.Value
		return nil, "", true, nil
	case fray.EventNoted:
		var d fray.NoteData
		if err := ev.Decode(&d); err != nil {
			return nil, "", true, err
		}
		c := enc.ByID(d.Who)
		if c == nil {
			return nil, "", true, fray.Errorf(fray.EINVALID, "Event %d notes %s, who is not present.", ev.Seq, d.Who)
		}
		if c.Notes != "" {
			c.Notes += "\n"
		}
		c.Notes += d.Note
		return nil, "", true, nil
	case fray.EventRevealed:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return nil, "", true, err
		}
		c := enc.ByID(d.Who)
		if c == nil {
			return nil, "", true, fray.Errorf(fray.EINVALID, "Event %d reveals %s, who is not present.", ev.Seq, d.Who)
		}
		c.Hidden = false
		return nil, "", true, nil
	}
	return nil, "", false, nil
}

// CheckName reports whether name can name a combatant: not empty, at most
// MaxNameLen bytes, printable, and not starting or ending with a blank.
func CheckName(name string) error {
	switch {
	case name == "":
		return fray.Errorf(fray.EINVALID, "A name cannot be empty.")
	case len(name) > MaxNameLen:
		return fray.Errorf(fray.ETOOLARGE, "The name %q is longer than %d bytes (MaxNameLen).", clip(name), MaxNameLen)
	case strings.TrimSpace(name) != name:
		return fray.Errorf(fray.EINVALID, "The name %q starts or ends with a blank.", name)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return fray.Errorf(fray.EINVALID, "The name %q holds a character that cannot be printed.", name)
		}
	}
	return nil
}

// ParseYesNo reads yes/no (also true/false, on/off, 1/0) for key.
func ParseYesNo(key, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "yes", "y", "true", "on", "1":
		return true, nil
	case "no", "n", "false", "off", "0":
		return false, nil
	}
	return false, fray.Errorf(fray.EINVALID, "%s=%s is neither yes nor no.", key, clip(v))
}

// MaxAmount bounds the N of the GM's damage NAME N and heal NAME N in
// every system: more in one command is a typing slip, not a blow.
const MaxAmount = 1000

// Amount reads argument i of cmd as a whole number of what ("Endurance",
// "hit points") from lo to MaxAmount, refusing anything else with an
// error naming the command, its first argument and the bounds.
func Amount(cmd fray.Command, i, lo int, what string) (int, error) {
	a := cmd.Arg(i)
	n, err := strconv.Atoi(a)
	if err != nil || n < lo || n > MaxAmount {
		return 0, fray.Errorf(fray.EINVALID, "%s %s: %q is not a whole number of %s from %d to %d.", cmd.Name, Clip(cmd.Arg(0)), Clip(a), what, lo, MaxAmount)
	}
	return n, nil
}

// Clip shortens a string quoted back in an error message to its first 40
// bytes, cut at a character's boundary, and marks the cut with "…".
func Clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	i := 40
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
