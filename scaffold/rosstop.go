package scaffold

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Which drafted services stop the robot, and which can release it. A
// service is judged by its type first and the whole words of its name
// second (a substring test let /dashboard_client/unlock_protective_stop
// pass as a stop). Only a stop whose stopping request is known is not
// physical: everything else is physical, so the draft's review_confirm
// hook asks before each call. A service that can release an e-stop or a
// runstop is never offered to the model.

// serviceRole is what a draft makes of a service.
type serviceRole int

const (
	// rolePhysical: any service that is not a known stop; confirmed.
	rolePhysical serviceRole = iota
	// roleStop: a Trigger or Empty whose name says it stops and nothing
	// else; not physical, and a candidate for the stop path.
	roleStop
	// roleWithheld: an e-stop or runstop service that may release it (or
	// whose stopping request is not known): not offered to the model.
	roleWithheld
)

// stopClass is a service's reading: its role, for a stop its rank as the
// stop path (lower is preferred) and the request that stops.
type stopClass struct {
	role    serviceRole
	rank    int
	request string // the stop's request expr; "{}" for Trigger and Empty
	// releases: a name word says it can start, release, unlock or switch.
	releases bool
}

// Service types whose request cannot carry a value that releases.
const (
	tTrigger = "std_srvs/srv/Trigger"
	tEmpty   = "std_srvs/srv/Empty"
	tSetBool = "std_srvs/srv/SetBool"
)

// stopWords are whole words that say a service stops; releaseWords (and
// the prefixes un-, dis-, re-) say it can start, release, unlock or switch
// something, which no stop does.
var (
	stopWords    = []string{"stop", "halt", "estop", "runstop"}
	releaseWords = []string{"start", "release", "unlock", "enable", "activate", "deactivate", "resume", "reset", "switch",
		"set", "load", "unload", "power", "brake", "home", "homing", "calibrate", "open", "close", "on", "off", "toggle",
		"clear", "arm", "disarm", "engage", "disengage", "recover", "restore", "continue", "run", "play", "go", "move",
		"drive", "execute", "trigger", "mode", "init", "initialize", "boot", "free", "unfreeze", "ack", "acknowledge",
		"allow", "override", "bypass", "mute", "ignore", "skip", "cancel", "abort", "pause", "unpause", "restart", "jog"}
	releasePrefixes = []string{"un", "dis", "re"}
	// broadStopWords make a plain stop the robot's own (preferred as the
	// stop path to a stop of one part).
	broadStopWords = []string{"robot", "all", "dashboard", "motion", "motions", "everything"}
)

// nameWords splits a ROS name into lower-case words at anything but a
// letter or a digit, and at camelCase humps ("EStop" is e, stop).
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if unicode.IsUpper(r) && len(cur) > 0 {
			prevLower := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || unicode.IsUpper(rs[i-1]) && nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// estopLike says an e-stop or a runstop, whose release a model must never
// reach: one word, or two read as one ("e stop", "run stop").
func estopLike(ws []string) bool {
	for i, w := range ws {
		switch w {
		case "estop", "runstop", "estopped", "runstopped", "emergency":
			return true
		}
		if i+1 < len(ws) && ws[i+1] == "stop" {
			switch w {
			case "e", "run", "protective", "safety", "emergency":
				return true
			}
		}
	}
	return false
}

// stopsByWord reports whether a word says stop (an e-stop's too).
func stopsByWord(ws []string) bool {
	return slices.ContainsFunc(ws, func(w string) bool { return slices.Contains(stopWords, w) })
}

// releasesByWord reports whether a word says start, release, unlock,
// switch and the like.
func releasesByWord(ws []string) bool {
	return slices.ContainsFunc(ws, func(w string) bool {
		if slices.Contains(releaseWords, w) {
			return true
		}
		return slices.ContainsFunc(releasePrefixes, func(p string) bool { return strings.HasPrefix(w, p) && len(w) > len(p)+2 })
	})
}

// classifyService reads a service's type and name.
func classifyService(name, typ string) stopClass {
	ws := nameWords(name)
	estop, stops, releases := estopLike(ws), stopsByWord(ws), releasesByWord(ws)
	c := stopClass{role: rolePhysical, releases: releases}
	switch {
	case releases || !stops:
		// A service that names a release, or no stop: physical.
	case typ == tTrigger || typ == tEmpty:
		if slices.Contains(ws, "runstop") || slices.Contains(ws, "run") {
			// A runstop's Trigger may toggle it: engaged or released by
			// the same call.
			break
		}
		c.role, c.request, c.rank = roleStop, "{}", 1
		switch {
		case estop:
			c.rank = 2 // an e-stop: a person must reset it
		case len(ws) == 1 || slices.ContainsFunc(ws, func(w string) bool { return slices.Contains(broadStopWords, w) }):
			c.rank = 0
		}
	case typ == tSetBool && stopNoun(ws):
		// Its name is the state it sets ("runstop", "emergency_stop"):
		// data: true engages it. Still never offered to the model, whose
		// data: false would release it.
		c.role, c.request, c.rank = roleWithheld, "{data: true}", 3
		return c
	}
	if c.role == rolePhysical && estop {
		c.role = roleWithheld
	}
	return c
}

// stopNoun reports whether a name ends in the stop it sets (…/stop,
// …/runstop, …/emergency_stop) and says nothing else it could set.
func stopNoun(ws []string) bool {
	return len(ws) > 0 && slices.Contains(stopWords, ws[len(ws)-1])
}

// stopCandidate is a service that may be the stop path.
type stopCandidate struct {
	name, typ string
	class     stopClass
}

// withhold leaves an e-stop or runstop service out of the tools, saying
// why; one whose engaging request is known stays a stop candidate.
func (d *draft) withhold(name, typ string, c stopClass) {
	why := "it can release an e-stop or a runstop, or its name does not say which request engages it"
	if c.request != "" {
		why = fmt.Sprintf("its request sets the stop (%s engages it, read from its name), and any other releases it", c.request)
		d.stops = append(d.stops, stopCandidate{name: name, typ: typ, class: c})
	}
	d.Review = append(d.Review, fmt.Sprintf("the service %s (%s) is not offered to the model: %s; a model must never release an e-stop or a runstop (a person does, at the robot)", safeText(name), typ, why))
}

// chooseStop declares the best stop candidate as the stop path: the
// robot's own stop over a stop of one part, either over an e-stop's
// Trigger (a person must reset it), any of them over a SetBool whose
// polarity is read from its name; then by name. With none, the stop is
// left undeclared and the physical actions disabled (disableUnstoppable).
func (d *draft) chooseStop() {
	if len(d.stops) == 0 {
		return
	}
	best := slices.MinFunc(d.stops, func(a, b stopCandidate) int {
		if a.class.rank != b.class.rank {
			return a.class.rank - b.class.rank
		}
		return strings.Compare(a.name, b.name)
	})
	d.StopService, d.StopServiceType, d.StopRequest = best.name, best.typ, best.class.request
	var others []string
	for _, c := range d.stops {
		if c.name != best.name {
			others = append(others, c.name)
		}
	}
	d.StopReview = fmt.Sprintf("check that %s halts every motion and only stops (a UR dashboard's stop also ends its program)", safeText(best.name))
	if best.typ == tSetBool {
		d.StopReview += "; it is a SetBool whose name says data: true engages it: check its polarity on the robot (false would release it)"
	}
	if len(others) > 0 {
		d.StopReview += "; the other stops were not chosen: " + listed(others)
	}
}

// disableUnstoppable comments out the physical actions when the draft has
// no stop path (no known stop, no cmd_vel): a goal whose server ignores
// its cancel would run to the end of its plan.
func (d *draft) disableUnstoppable() {
	if d.StopService != "" || d.CmdVel != "" {
		return
	}
	for i, t := range d.Tools {
		if t.Action && t.Physical {
			d.Tools[i].Disabled = true
			d.Tools[i].Review = append(d.Tools[i].Review, "disabled: the draft knows no stop path (no stop service whose stopping request it knows, no cmd_vel); declare rosbridge.stop, then uncomment this tool and its contract")
		}
	}
}
