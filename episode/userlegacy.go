package episode

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/runlog"
)

// legacyAnswer finds the answer a confirm hook got in its block reason, as
// the confirm action worded it before confirmations were recorded as data.
var legacyAnswer = regexp.MustCompile(`\(answer ("(?:[^"\\]|\\.)*")\)$`)

// legacyConfirm reads a confirmation from a hook decision recorded before
// Decision.Confirmation existed: "yes" for a confirmed call, the quoted
// answer of one refused, or why no answer came, in the confirm action's
// old words. It is the one reader of that wording; ok is false for a
// decision that records no confirmation.
func legacyConfirm(d runlog.Decision) (confirmReply, bool) {
	hook := fmt.Sprintf("hook %q: ", d.Hook)
	switch d.Decision {
	case runlog.DecisionConfirm:
		return confirmReply{answer: "yes"}, true
	case runlog.DecisionBlock:
		if m := legacyAnswer.FindStringSubmatch(d.Reason); m != nil {
			if a, err := strconv.Unquote(m[1]); err == nil {
				return confirmReply{answer: a}, true
			}
			return confirmReply{}, false
		}
		if why, ok := strings.CutPrefix(d.Reason, hook+"asking for confirmation failed: "); ok {
			return confirmReply{err: errors.New(why)}, true
		}
		if d.Reason == hook+policies.ErrNoConfirmChannel.Error() {
			return confirmReply{err: policies.ErrNoConfirmChannel}, true
		}
	}
	return confirmReply{}, false
}
