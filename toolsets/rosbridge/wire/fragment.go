package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// reassembler joins fragmented messages ({"op":"fragment","id","num",
// "total","data"}) within bounds: fragments per message, bytes per message
// and in total, messages in progress. One per socket, used by its reading
// goroutine only.
type reassembler struct {
	maxBytes, maxFragments, maxPartial int
	report                             func(Garbage)

	partials map[string]*partial
	order    []string // ids by arrival, oldest first, for eviction
	held     int      // data bytes held over all partials
}

type partial struct {
	parts []string
	have  []bool
	got   int
	bytes int
}

func newReassembler(o Options, report func(Garbage)) *reassembler {
	return &reassembler{
		maxBytes:     o.MaxMessageBytes,
		maxFragments: o.MaxFragments,
		maxPartial:   o.MaxPartialMessages,
		report:       report,
		partials:     map[string]*partial{},
	}
}

// add takes one fragment frame of size bytes; it returns the whole message
// when this fragment completed one.
func (r *reassembler) add(m inbound, size int) ([]byte, bool) {
	bad := func(reason, format string, args ...any) ([]byte, bool) {
		r.report(Garbage{Reason: reason, Op: "fragment", Size: size, Detail: fmt.Sprintf(format, args...)})
		return nil, false
	}
	id := idString(m.ID)
	if id == "" {
		return bad(GarbageBadFragment, "no id")
	}
	var data string
	if err := json.Unmarshal(m.Data, &data); err != nil {
		return bad(GarbageBadFragment, "id %q: data is not a string", id)
	}
	num, okNum := count(m.Num)
	total, okTotal := count(m.Total)
	if !okNum || !okTotal || total < 1 || num >= total {
		r.drop(id)
		return bad(GarbageBadFragment, "id %q: num %s of total %s", id, m.Num, m.Total)
	}
	if total > r.maxFragments {
		r.drop(id)
		return bad(GarbageFragmentBounds, "id %q: %d fragments, limit %d", id, total, r.maxFragments)
	}
	p := r.partials[id]
	if p == nil {
		if len(r.partials) >= r.maxPartial {
			oldest := r.order[0]
			r.drop(oldest)
			r.report(Garbage{Reason: GarbageFragmentEvicted, Op: "fragment",
				Detail: fmt.Sprintf("id %q never completed; %d messages were in progress", oldest, r.maxPartial)})
		}
		p = &partial{parts: make([]string, total), have: make([]bool, total)}
		r.partials[id] = p
		r.order = append(r.order, id)
	}
	if len(p.parts) != total {
		r.drop(id)
		return bad(GarbageBadFragment, "id %q: total changed from %d to %d", id, len(p.parts), total)
	}
	if p.have[num] {
		if p.parts[num] == data {
			return nil, false // a repeat: harmless
		}
		r.drop(id)
		return bad(GarbageBadFragment, "id %q: fragment %d sent twice with different data", id, num)
	}
	if p.bytes+len(data) > r.maxBytes || r.held+len(data) > r.maxBytes {
		r.drop(id)
		return bad(GarbageFragmentBounds, "id %q: more than %d bytes", id, r.maxBytes)
	}
	p.parts[num], p.have[num] = data, true
	p.got++
	p.bytes += len(data)
	r.held += len(data)
	if p.got < total {
		return nil, false
	}
	r.drop(id)
	return []byte(strings.Join(p.parts, "")), true
}

// drop forgets a partial message.
func (r *reassembler) drop(id string) {
	p := r.partials[id]
	if p == nil {
		return
	}
	r.held -= p.bytes
	delete(r.partials, id)
	for i, o := range r.order {
		if o == id {
			r.order = append(r.order[:i], r.order[i+1:]...)
			break
		}
	}
}

// count reads a non-negative whole number. A fractional one is rounded
// down, as roslib does: Python 3 rosbridge computes total with "/", and
// floor(((len-1)/size)+1) is still the right count.
func count(raw json.RawMessage) (int, bool) {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || math.IsNaN(f) || f < 0 || f > math.MaxInt32 {
		return 0, false
	}
	return int(math.Floor(f)), true
}
