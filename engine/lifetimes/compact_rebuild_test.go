package lifetimes

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// rebuild reuses acc's array; the result must equal building the
// compacted context afresh, for every cut and pinned position run can give
// it, and the slots it leaves must hold nothing.
func TestRebuildInPlaceEqualsAFreshSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 1))
	for range 2000 {
		n := 2 + r.IntN(30)
		acc := make([]entry, n, n+r.IntN(4))
		for i := range acc {
			acc[i] = entry{group: i, msg: userText("m" + strconv.Itoa(i)), tokens: i}
		}
		cut := 1 + r.IntN(n)
		pinned := -1
		if r.IntN(2) == 0 {
			pinned = r.IntN(cut)
		} else if r.IntN(3) == 0 {
			pinned = cut + r.IntN(n-cut+1) - 1 // in the tail, or -1: not moved
			if pinned < cut {
				pinned = -1
			}
		}
		cp := entry{kind: KindCheckpoint, msg: userText("checkpoint")}
		want := []entry{cp}
		if pinned >= 0 && pinned < cut {
			want = append(want, acc[pinned])
		}
		want = append(want, acc[cut:]...)
		wantText := make([]string, len(want))
		for i := range want {
			wantText[i] = want[i].msg.Text()
		}
		got := rebuild(acc, cut, cp, pinned)
		if len(got) != len(want) {
			t.Fatalf("n %d cut %d pinned %d: %d entries, want %d", n, cut, pinned, len(got), len(want))
		}
		for i := range got {
			if got[i].msg.Text() != wantText[i] || got[i].group != want[i].group {
				t.Fatalf("n %d cut %d pinned %d: entry %d is %q, want %q", n, cut, pinned, i, got[i].msg.Text(), wantText[i])
			}
		}
		if head := len(want) - (n - cut); cut < head {
			continue // a fresh slice: acc is as it was
		}
		for i := len(got); i < n; i++ {
			if acc[i].msg.Parts != nil || acc[i].group != 0 {
				t.Fatalf("n %d cut %d: slot %d not cleared", n, cut, i)
			}
		}
	}
}
