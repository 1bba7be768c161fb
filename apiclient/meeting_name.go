package apiclient

// Name is how a meeting is called when it must be named: its title, else
// its reference, else its ID.
func (m *Meeting) Name() string {
	switch {
	case m.Title != "":
		return m.Title
	case m.Reference != "":
		return m.Reference
	}
	return m.ID
}
