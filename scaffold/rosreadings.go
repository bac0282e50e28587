package scaffold

import (
	"fmt"
	"slices"
	"strings"
)

// Safety readings of a draft: every Bool and Range, and the number topics
// whose name says distance. Which of them are safety-relevant, a Bool's
// polarity and a distance's threshold are the integrator's to review.

// unsafeWords name a Bool that reads true when motion is unsafe (an
// e-stop pressed); safeWords one that reads true when it is safe (a
// safety controller's "ok"). They are matched as whole words of the name
// ("safety" is not "safe"); a name with neither ("light_curtain") does not
// say its polarity.
var (
	unsafeWords = []string{"estop", "e_stop", "emergency", "emergency_stop", "bumper", "bump", "bumped", "cliff",
		"collision", "contact", "fault", "error", "alarm", "pressed", "triggered", "tripped", "occupied", "intrusion",
		"protective", "protective_stop", "person", "human", "presence", "detected", "stop", "stopped", "broken",
		"blocked", "interrupted", "violation", "violated"}
	safeWords  = []string{"clear", "ok", "safe", "ready", "enabled", "free", "unbroken", "released", "released_ok"}
	distWords  = []string{"distance", "range", "proximity", "clearance", "separation", "dist"}
	estopWords = []string{"estop", "e_stop", "emergency_stop", "emergency"}
)

// hasWord reports whether a topic's name contains one of the words.
func hasWord(topic string, words []string) bool {
	t := strings.ToLower(topic)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(t, w) })
}

// hasWholeWord reports whether one of the words (which may join words
// with '_') is a whole word of the name, its words split at anything but
// a letter or a digit.
func hasWholeWord(topic string, words []string) bool {
	t := "_" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, strings.ToLower(topic)) + "_"
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(t, "_"+w+"_") })
}

func (d *draft) readings(byType map[string][]string, s *sampled) {
	type cand struct {
		topic, typ string
	}
	var all []cand
	var numbers []string
	for _, t := range byType[tBool] {
		all = append(all, cand{t, tBool})
	}
	for _, t := range byType[tRange] {
		all = append(all, cand{t, tRange})
	}
	for _, typ := range []string{tFloat32, tFloat64} {
		for _, t := range byType[typ] {
			if hasWord(t, distWords) {
				all = append(all, cand{t, typ})
			} else {
				numbers = append(numbers, t)
			}
		}
	}
	slices.SortFunc(all, func(a, b cand) int { return strings.Compare(a.topic, b.topic) })
	d.note(numbers, "number topics whose name does not say distance are not drafted as safety readings (declare those that are)")
	if len(all) > maxReadings {
		var rest []string
		for _, c := range all[maxReadings:] {
			rest = append(rest, c.topic)
		}
		d.note(rest, fmt.Sprintf("more safety reading candidates than the %d drafted", maxReadings))
		all = all[:maxReadings]
	}
	names := newNamer()
	for _, c := range all {
		r := draftReading{Name: names.name(c.topic), Topic: c.topic, Type: c.typ, Bool: c.typ == tBool}
		if r.Bool {
			r.SafeWhen, r.Review = polarity(c.topic, s)
		} else {
			r.Review = fmt.Sprintf("is %s a distance in metres to a person or an obstacle? Motion is blocked under %.1f m, a conservative guess: set the threshold from your risk assessment", safeText(c.topic), distanceThreshold)
		}
		if c.typ == tRange {
			r.Review += " (a Range with no return sends inf, which rosbridge sends as null: that blocks too)"
		}
		d.Readings = append(d.Readings, r)
	}
}

// polarity guesses a Bool's value while motion is safe: from its name
// when a word says it, else from its value while drafting (the cell taken
// to be safe then), else true is unsafe. The review says which, and a
// value while drafting that disagrees with the name.
func polarity(topic string, s *sampled) (safeWhen bool, review string) {
	t := safeText(topic)
	now, heard := s.bools[topic]
	unsafe, safe := hasWholeWord(topic, unsafeWords), hasWholeWord(topic, safeWords)
	switch {
	case safe && !unsafe:
		review = fmt.Sprintf("is %s safety-relevant? Its name reads as true while it is safe (a safety controller's ok), so a false blocks motion: check its polarity", t)
		safeWhen = true
	case unsafe || !heard:
		review = fmt.Sprintf("is %s safety-relevant? It is taken to read true when motion is unsafe (an e-stop pressed), so a true blocks motion: check its polarity", t)
	default:
		return now, fmt.Sprintf("is %s safety-relevant? Its name does not say its polarity: it read %v while drafting, taken as its value while motion is safe (the cell clear then), so %v blocks motion: check its polarity", t, now, !now)
	}
	if heard && now != safeWhen {
		review += fmt.Sprintf(" (it read %v while drafting: if the cell was safe then, the polarity is the other way)", now)
	}
	return safeWhen, review
}
