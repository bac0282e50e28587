package livecheck

import (
	"context"
	"errors"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/runlog"
)

// noSession is the host of builtin toolsets during a live check: their
// tools are listed, and any that reaches for a session is refused.
type noSession struct{}

var _ engine.Host = noSession{}

func (noSession) User() engine.UserChannel { return noUser{} }
func (noSession) LoadSkill(string) (string, error) {
	return "", errors.New("no session: thea validate --live does not load skills")
}
func (noSession) SkillResource(context.Context, string, string) (string, error) {
	return "", errors.New("no session: thea validate --live does not read skill resources")
}
func (noSession) SceneLookup(string) []scenegraph.Entry { return nil }
func (noSession) SceneRelations(string, string) ([]scenegraph.Relation, error) {
	return nil, errNoScene
}
func (noSession) SceneView(string) (scenegraph.View, error) { return scenegraph.View{}, errNoScene }
func (noSession) SceneDescribe([]string) ([]string, error)  { return nil, errNoScene }

var errNoScene = errors.New("no session: thea validate --live has no scene graph")

func (noSession) Emit(runlog.Event) {}

// Hold holds nothing: a live check runs no task.
func (noSession) Hold(string, time.Duration) func() { return func() {} }

type noUser struct{}

func (noUser) Ask(context.Context, engine.Question) (string, error) {
	return "", errors.New("no user during thea validate --live")
}
func (noUser) Notify(context.Context, string) error { return nil }
