package audit

// InActionHistory reports whether reader may read e in an action's
// history (/actions history), once the visibility rule has let them see
// the action: its status changes, whoever made them, and their own
// snoozes of it. A snooze is a person's own plan, like their time away
// and their settings, which are no action's history at all; neither is a
// follow of a channel. So a reader who may see anyone's actions reads
// nothing of someone else's time away, snoozes, settings or channels,
// whatever they type.
func (e *Entry) InActionHistory(reader string) bool {
	switch e.Kind {
	case ActionStatus:
		return true
	case Snooze:
		return e.Actor == reader
	}
	return false
}
