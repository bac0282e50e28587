package toolsets

// restrict keeps the names allowed by the toolset's Tools list (empty: all) and
// reports listed names the toolset does not have.
func restrict(allowed, have []string) (keep map[string]bool, missing []string) {
	keep = map[string]bool{}
	if len(allowed) == 0 {
		for _, n := range have {
			keep[n] = true
		}
		return keep, nil
	}
	set := map[string]bool{}
	for _, n := range have {
		set[n] = true
	}
	for _, n := range allowed {
		if set[n] {
			keep[n] = true
		} else {
			missing = append(missing, n)
		}
	}
	return keep, missing
}
