// Package sheet loads character sheets for an encounter from YAML or JSON
// files (a party file and a foes file), checks them against the schema
// the rule system declares (fray.Sheeter) with errors that name the field
// ("foes.yaml: Ganyeka.powers[0].rank: must be from 1 to 14"), and
// works out the derived values a sheet leaves out (V&V Power, P&P Health,
// Unisystem Life Points) as the schema says.
//
// A file is a list of characters, or a mapping with the rules it is for
// and the list under characters:
//
//	rules: bpb
//	characters:
//	  - name: Monolith
//	    side: pc
//	    stats: {brawn: 12, agility: 4, accuracy: 5, prowess: 8, perception: 5, willpower: 6}
//	    tracks: {endurance: 30}
//	    powers:
//	      - {name: Punch, rank: 10, range: close}
//	    expertise: [blocking]
//	    protection: {armour: 6}
//	    tactic: cautious
//
// A character's tactic: is how fray sim plays it (one of Tactics); Load
// and Parse check it and leave it out of the combatant, which fray play
// and the server read, and LoadTactics returns it as well.
//
// YAML is read with go.yaml.in/yaml/v3, refusing anchors, aliases and
// tags, and JSON with encoding/json; an error in a YAML file names its
// line.
//
// The loaded characters are fray.Combatant values; engine.Engine.Join
// adds them to an encounter in one step.
package sheet

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"fray"
	"fray/dice"
)

// errorf is the error of a sheet file that does not fit its schema; the
// message names the file and the field.
func errorf(file, path, format string, args ...any) error {
	msg := file + ": "
	if path != "" {
		msg += path + ": "
	}
	return &fray.Error{Code: fray.EINVALID, Message: msg + fmt.Sprintf(format, args...)}
}

// Tactics lists the tactics a character's tactic: may name: those fray
// sim plays (package sim's Tactics, which a test of sim keeps the same).
var Tactics = []string{"focus-weakest", "focus-strongest", "random", "cautious"}

// Load reads the sheet file at path for the system sys, giving each
// character without a side the side def (fray.SidePC for a party,
// fray.SideNPC for foes).
func Load(path string, sys fray.System, def string) ([]fray.Combatant, error) {
	cs, _, err := LoadTactics(path, sys, def)
	return cs, err
}

// LoadTactics reads the sheet file at path as Load does, and returns as
// well the tactic each character's sheet names (tactic:), by the
// character's name; a character without one is left out of the map.
func LoadTactics(path string, sys fray.System, def string) ([]fray.Combatant, map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, &fray.Error{Code: fray.ENOTFOUND, Message: "The sheet file " + path + " cannot be read.", Err: err}
	}
	return ParseTactics(filepath.Base(path), b, sys, def)
}

// Parse reads a sheet file's contents for the system sys; name is the
// file's name, for messages, and its extension (.json or not) says how to
// read it. A system that is not a fray.Sheeter has no sheets.
func Parse(name string, b []byte, sys fray.System, def string) ([]fray.Combatant, error) {
	cs, _, err := ParseTactics(name, b, sys, def)
	return cs, err
}

// ParseTactics reads a sheet file's contents as Parse does, and returns
// as well the tactic each character's sheet names, by name (see
// LoadTactics).
func ParseTactics(name string, b []byte, sys fray.System, def string) ([]fray.Combatant, map[string]string, error) {
	sh, ok := sys.(fray.Sheeter)
	if !ok {
		return nil, nil, errorf(name, "", "there are no sheets for the rules %q", sys.ID())
	}
	if len(b) > MaxFileBytes {
		return nil, nil, &fray.Error{Code: fray.ETOOLARGE, Message: fmt.Sprintf("%s: the file is larger than %d bytes (MaxFileBytes).", name, MaxFileBytes)}
	}
	var root *yaml.Node
	var err error
	if strings.EqualFold(filepath.Ext(name), ".json") {
		root, err = parseJSON(b)
	} else {
		root, err = parseYAML(b)
	}
	if err != nil {
		return nil, nil, errorf(name, "", "%v", err)
	}
	d := &decoder{file: name, rules: sys.ID(), sc: sh.Sheet(), def: def}
	cs, err := d.file_(root)
	if err != nil {
		return nil, nil, err
	}
	return cs, d.tactics, nil
}

type decoder struct {
	file    string
	rules   string // the system's id
	sc      fray.SheetSchema
	def     string
	tactics map[string]string // by character name
}

func (d *decoder) errorf(path string, n *yaml.Node, format string, args ...any) error {
	if n != nil && n.Line > 0 {
		format += " (line %d)"
		args = append(args, n.Line)
	}
	return errorf(d.file, path, format, args...)
}

func (d *decoder) file_(root *yaml.Node) ([]fray.Combatant, error) {
	list := root
	if root.Kind == yaml.MappingNode {
		if err := d.keys("", root, "rules", "characters"); err != nil {
			return nil, err
		}
		if r := get(root, "rules"); r != nil {
			if r.Kind != yaml.ScalarNode || r.Value != d.rules {
				return nil, d.errorf("rules", r, "the file is for the rules %q, not %q", r.Value, d.rules)
			}
		}
		list = get(root, "characters")
		if list == nil {
			return nil, d.errorf("characters", root, "missing: list the characters under characters:")
		}
	}
	if isNull(list) {
		return nil, nil
	}
	if list.Kind != yaml.SequenceNode {
		return nil, d.errorf("", list, "a sheet file is a list of characters (- name: …) or a mapping with characters:")
	}
	out := make([]fray.Combatant, 0, len(list.Content))
	seen := map[string]bool{}
	for i, n := range list.Content {
		c, err := d.character(i, n)
		if err != nil {
			return nil, err
		}
		if seen[strings.ToLower(c.Name)] {
			return nil, d.errorf(c.Name, n, "the name is used twice in the file")
		}
		seen[strings.ToLower(c.Name)] = true
		out = append(out, c)
	}
	return out, nil
}

// keys refuses keys of n not in allowed.
func (d *decoder) keys(path string, n *yaml.Node, allowed ...string) error {
	for k, v := range pairs(n) {
		if !slices.Contains(allowed, k) {
			return d.errorf(join(path, k), v, "unknown field; the fields are %s", strings.Join(allowed, ", "))
		}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (d *decoder) str(path string, n *yaml.Node) (string, error) {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		return "", d.errorf(path, n, "must be a text")
	}
	return n.Value, nil
}

func (d *decoder) int(path string, n *yaml.Node, lo, hi int) (int, error) {
	if n.Kind != yaml.ScalarNode || isNull(n) || isQuoted(n) {
		return 0, d.errorf(path, n, "must be a whole number from %d to %d", lo, hi)
	}
	v, err := strconv.Atoi(strings.TrimPrefix(n.Value, "+"))
	if err != nil || v < lo || v > hi {
		return 0, d.errorf(path, n, "must be from %d to %d", lo, hi)
	}
	return v, nil
}

func (d *decoder) bool(path string, n *yaml.Node) (bool, error) {
	if n.Kind == yaml.ScalarNode && !isQuoted(n) {
		switch strings.ToLower(n.Value) {
		case "yes", "true", "on", "y":
			return true, nil
		case "no", "false", "off", "n":
			return false, nil
		}
	}
	return false, d.errorf(path, n, "must be yes or no")
}

func (d *decoder) oneOf(path string, n *yaml.Node, allowed []string) (string, error) {
	s, err := d.str(path, n)
	if err != nil {
		return "", err
	}
	s = strings.ToLower(s)
	if !slices.Contains(allowed, s) {
		return "", d.errorf(path, n, "must be one of %s", strings.Join(allowed, ", "))
	}
	return s, nil
}

var characterKeys = []string{"name", "side", "kind", "group", "hidden", "aware", "notes", "stats", "tracks", "powers", "weapons", "skills", "talents", "expertise", "protection", "qualities", "tactic"}

func (d *decoder) character(i int, n *yaml.Node) (fray.Combatant, error) {
	var c fray.Combatant
	path := "[" + strconv.Itoa(i) + "]"
	if n.Kind != yaml.MappingNode {
		return c, d.errorf(path, n, "a character is a mapping of fields (name: …, stats: …)")
	}
	if nn := get(n, "name"); nn != nil {
		name, err := d.str(path+".name", nn)
		if err != nil {
			return c, err
		}
		if name == "" || len(name) > 64 || strings.TrimSpace(name) != name {
			return c, d.errorf(path+".name", nn, "must be 1 to 64 bytes, not starting or ending with a blank")
		}
		c.Name, path = name, name
	} else {
		return c, d.errorf(path+".name", n, "missing: every character has a name")
	}
	if err := d.keys(path, n, characterKeys...); err != nil {
		return c, err
	}
	c.Kind, c.Side = fray.KindCharacter, d.def
	var err error
	for k, v := range pairs(n) {
		p := join(path, k)
		switch k {
		case "side":
			c.Side, err = d.oneOf(p, v, []string{fray.SidePC, fray.SideNPC})
		case "kind":
			c.Kind, err = d.oneOf(p, v, []string{fray.KindCharacter, fray.KindGroup, fray.KindEnvironment})
		case "group":
			c.Group, err = d.str(p, v)
		case "notes":
			c.Notes, err = d.str(p, v)
		case "hidden":
			c.Hidden, err = d.bool(p, v)
		case "aware":
			var aware bool
			aware, err = d.bool(p, v)
			c.Unaware = !aware
		case "stats":
			err = d.stats(p, v, &c)
		case "tracks":
			err = d.tracks(p, v, &c)
		case "powers", "weapons", "skills", "talents":
			err = d.powers(p, v, k, &c)
		case "expertise":
			err = d.expertise(p, v, &c)
		case "protection", "qualities":
			err = d.numbers(p, v, k, &c)
		case "tactic":
			var t string
			if t, err = d.oneOf(p, v, Tactics); err == nil {
				if d.tactics == nil {
					d.tactics = map[string]string{}
				}
				d.tactics[c.Name] = t
			}
		}
		if err != nil {
			return c, err
		}
	}
	return c, d.complete(path, n, &c)
}

func (d *decoder) mapping(path string, n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return d.errorf(path, n, "must be a mapping of names to values ({a: 1, b: 2})")
	}
	return nil
}

func (d *decoder) stats(path string, n *yaml.Node, c *fray.Combatant) error {
	if err := d.mapping(path, n); err != nil {
		return err
	}
	c.Stats = map[string]int{}
	for k, v := range pairs(n) {
		name := strings.ToLower(k)
		i := slices.IndexFunc(d.sc.Stats, func(r fray.SheetRange) bool { return r.Name == name })
		if i < 0 {
			return d.errorf(join(path, k), v, "unknown stat; %s sheets have %s", d.rules, rangeNames(d.sc.Stats))
		}
		r := d.sc.Stats[i]
		x, err := d.int(join(path, k), v, r.Min, r.Max)
		if err != nil {
			return err
		}
		c.Stats[name] = x
	}
	return nil
}

func rangeNames(rs []fray.SheetRange) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.Name
	}
	return strings.Join(names, ", ")
}

func (d *decoder) tracks(path string, n *yaml.Node, c *fray.Combatant) error {
	if err := d.mapping(path, n); err != nil {
		return err
	}
	c.Tracks = map[string]fray.Track{}
	for k, v := range pairs(n) {
		name := strings.ToLower(k)
		i := slices.IndexFunc(d.sc.Tracks, func(r fray.SheetRange) bool { return r.Name == name })
		p := join(path, k)
		if i < 0 {
			return d.errorf(p, v, "unknown track; %s sheets have %s", d.rules, rangeNames(d.sc.Tracks))
		}
		r := d.sc.Tracks[i]
		var t fray.Track
		if v.Kind == yaml.MappingNode {
			if err := d.keys(p, v, "value", "max"); err != nil {
				return err
			}
			mx := get(v, "max")
			if mx == nil {
				return d.errorf(p+".max", v, "missing")
			}
			var err error
			if t.Max, err = d.int(p+".max", mx, r.Min, r.Max); err != nil {
				return err
			}
			t.Value = t.Max
			if vv := get(v, "value"); vv != nil {
				if t.Value, err = d.int(p+".value", vv, r.Min, t.Max); err != nil {
					return err
				}
			}
		} else {
			x, err := d.int(p, v, r.Min, r.Max)
			if err != nil {
				return err
			}
			t = fray.Track{Value: x, Max: x}
		}
		c.Tracks[name] = t
	}
	return nil
}

var powerKeys = []string{"name", "kind", "rank", "range", "damage", "weight", "special", "skill", "dice", "clip", "notes", "expertise"}

// MaxClip bounds a firearm's clip on a sheet.
const MaxClip = 1000

func (d *decoder) powers(path string, n *yaml.Node, list string, c *fray.Combatant) error {
	if n.Kind != yaml.SequenceNode {
		return d.errorf(path, n, "must be a list (- name: …, rank: …)")
	}
	kind := map[string]string{"powers": "", "weapons": fray.PowerKindWeapon, "skills": fray.PowerKindSkill, "talents": fray.PowerKindTalent}[list]
	for i, pn := range n.Content {
		p := path + "[" + strconv.Itoa(i) + "]"
		if pn.Kind != yaml.MappingNode {
			return d.errorf(p, pn, "must be a mapping (name: …, rank: …)")
		}
		if err := d.keys(p, pn, powerKeys...); err != nil {
			return err
		}
		pw := fray.Power{Kind: kind}
		var err error
		expert := false
		if get(pn, "name") == nil {
			return d.errorf(p+".name", pn, "missing")
		}
		if get(pn, "rank") == nil {
			return d.errorf(p+".rank", pn, "missing")
		}
		for k, v := range pairs(pn) {
			q := join(p, k)
			switch k {
			case "name":
				pw.Name, err = d.str(q, v)
				if err == nil && (pw.Name == "" || len(pw.Name) > 64) {
					err = d.errorf(q, v, "must be 1 to 64 bytes")
				}
				if err == nil && c.Power(pw.Name) != nil {
					err = d.errorf(q, v, "%q is listed twice", pw.Name)
				}
			case "kind":
				pw.Kind, err = d.oneOf(q, v, d.sc.Kinds)
			case "rank":
				pw.Rank, err = d.int(q, v, d.sc.Rank.Min, d.sc.Rank.Max)
			case "range":
				pw.Range, err = d.oneOf(q, v, []string{"close", "ranged"})
			case "damage":
				if d.sc.Damage == nil {
					pw.Damage, err = d.str(q, v)
				} else {
					pw.Damage, err = d.oneOf(q, v, d.sc.Damage)
				}
			case "weight":
				if d.sc.Weights == nil {
					err = d.errorf(q, v, "%s weapons have no weight", d.rules)
				} else {
					pw.Weight, err = d.oneOf(q, v, d.sc.Weights)
				}
			case "special":
				pw.Special, err = d.str(q, v)
			case "skill":
				pw.Skill, err = d.str(q, v)
				if err == nil && len(pw.Skill) > 64 {
					err = d.errorf(q, v, "must be at most 64 bytes")
				}
			case "dice":
				pw.Dice, err = d.str(q, v)
				if err == nil {
					if _, perr := dice.Parse(pw.Dice); perr != nil {
						err = d.errorf(q, v, "not dice notation: %v", perr)
					}
				}
			case "clip":
				pw.Clip, err = d.int(q, v, 1, MaxClip)
			case "notes":
				pw.Notes, err = d.str(q, v)
			case "expertise":
				expert, err = d.bool(q, v)
			}
			if err != nil {
				return err
			}
		}
		if pw.Kind == "" {
			if len(d.sc.Kinds) == 0 {
				return d.errorf(p, pn, "%s sheets have no powers", d.rules)
			}
			pw.Kind = d.sc.Kinds[0]
		}
		if !slices.Contains(d.sc.Kinds, pw.Kind) {
			return d.errorf(p, pn, "%s sheets have no %ss", d.rules, pw.Kind)
		}
		if d.sc.Weights != nil && pw.Weight == "" {
			return d.errorf(p+".weight", pn, "missing: one of %s", strings.Join(d.sc.Weights, ", "))
		}
		c.Powers = append(c.Powers, pw)
		if expert {
			c.Expertise = appendExpertise(c.Expertise, pw.Name)
		}
	}
	return nil
}

func appendExpertise(xs []string, name string) []string {
	name = strings.ToLower(name)
	if slices.Contains(xs, name) {
		return xs
	}
	return append(xs, name)
}

func (d *decoder) expertise(path string, n *yaml.Node, c *fray.Combatant) error {
	if n.Kind != yaml.SequenceNode {
		return d.errorf(path, n, "must be a list of skills and powers ([blocking, blast])")
	}
	for i, x := range n.Content {
		s, err := d.str(path+"["+strconv.Itoa(i)+"]", x)
		if err != nil {
			return err
		}
		c.Expertise = appendExpertise(c.Expertise, s)
	}
	return nil
}

func (d *decoder) numbers(path string, n *yaml.Node, what string, c *fray.Combatant) error {
	if err := d.mapping(path, n); err != nil {
		return err
	}
	m := map[string]int{}
	for k, v := range pairs(n) {
		key := k
		if what == "protection" {
			key = strings.ToLower(k)
			if d.sc.Protection != nil && !slices.Contains(d.sc.Protection, key) {
				return d.errorf(join(path, k), v, "unknown protection; %s sheets have %s", d.rules, strings.Join(d.sc.Protection, ", "))
			}
			if d.sc.Damage != nil && d.sc.Protection == nil && !slices.Contains(d.sc.Damage, key) {
				return d.errorf(join(path, k), v, "unknown protection; %s sheets have %s", d.rules, strings.Join(d.sc.Damage, ", "))
			}
		}
		x, err := d.int(join(path, k), v, 0, 1000)
		if err != nil {
			return err
		}
		m[key] = x
	}
	if what == "protection" {
		c.Protection = m
	} else {
		c.Qualities = m
	}
	return nil
}

// complete checks the required stats and tracks and works out the derived
// ones.
func (d *decoder) complete(path string, n *yaml.Node, c *fray.Combatant) error {
	if c.Kind == fray.KindEnvironment {
		return nil
	}
	for _, r := range d.sc.Stats {
		if _, ok := c.Stats[r.Name]; r.Required && !ok {
			return d.errorf(join(path, "stats."+r.Name), n, "missing")
		}
	}
	for _, r := range d.sc.Tracks {
		if _, ok := c.Tracks[r.Name]; ok {
			continue
		}
		if r.Derives() {
			if v, ok := r.Derive(c); ok {
				if c.Tracks == nil {
					c.Tracks = map[string]fray.Track{}
				}
				c.Tracks[r.Name] = fray.Track{Value: v, Max: v}
				continue
			}
		}
		if r.Required {
			return d.errorf(join(path, "tracks."+r.Name), n, "missing")
		}
	}
	return nil
}
