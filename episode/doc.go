// Package episode owns what is done with recorded episodes and many runs of
// one task: saving a run as an episode (thea run --record), replaying
// episodes as regression tests with their first divergence (thea test),
// JUnit reports, and success rates over simulator seeds, sharded and merged
// (thea eval).
package episode
