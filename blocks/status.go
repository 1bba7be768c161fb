package blocks

import "github.com/recordsbot/recordsbot/internal/lang"

// How statuses read, and which changes each offers: every word about an
// action's status is here, so a label or a transition changes in one place.

// The action statuses of the records service. blocks does not import the
// API client; these are the same strings.
const (
	statusOpen       = "open"
	statusInProgress = "in_progress"
	statusComplete   = "complete"
	statusCancelled  = "cancelled"
	statusDeferred   = "deferred"
)

// statusWord is how a status reads in a row in l; an unknown status is
// shown as the server sent it.
func statusWord(l lang.Lang, status string) string {
	switch status {
	case statusOpen, statusInProgress, statusComplete, statusCancelled, statusDeferred:
		return l.T(statusKeys[status])
	}
	return inline(status, rowStatusMax)
}

// statusKeys are the catalogue's words for the known statuses.
var statusKeys = map[string]lang.Key{
	statusOpen:       "status.open",
	statusInProgress: "status.in_progress",
	statusComplete:   "status.complete",
	statusCancelled:  "status.cancelled",
	statusDeferred:   "status.deferred",
}

// doneKeys and alreadyKeys are the catalogue's sentences for a change to
// each known status, and for a change to the status an action already has.
var (
	doneKeys = map[string]lang.Key{
		statusOpen:       "status.done.open",
		statusInProgress: "status.done.in_progress",
		statusComplete:   "status.done.complete",
		statusCancelled:  "status.done.cancelled",
		statusDeferred:   "status.done.deferred",
	}
	alreadyKeys = map[string]lang.Key{
		statusOpen:       "status.already.open",
		statusInProgress: "status.already.in_progress",
		statusComplete:   "status.already.complete",
		statusCancelled:  "status.already.cancelled",
		statusDeferred:   "status.already.deferred",
	}
)

// transitions returns the status changes that make sense from status: the
// common ones as buttons, the rarer ones for the overflow menu. An unknown
// status offers every change but Defer, as a safe default.
func transitions(status string) (buttons, menu []string) {
	switch status {
	case statusOpen:
		return openButtons, openMenu
	case statusInProgress:
		return inProgressButtons, otherMenu
	case statusDeferred:
		return deferredButtons, otherMenu
	case statusComplete, statusCancelled:
		return finishedButtons, nil
	}
	return deferredButtons, otherMenu
}

// The transitions, built once: every row of every list asks (read only).
var (
	openButtons       = []string{statusComplete, statusInProgress, statusDeferred}
	inProgressButtons = []string{statusComplete, statusDeferred}
	deferredButtons   = []string{statusComplete, statusInProgress}
	finishedButtons   = []string{statusOpen}
	openMenu          = []string{statusCancelled}
	otherMenu         = []string{statusCancelled, statusOpen}
)

// statusActionID is the action_id of the button that sets target:
// ActionStatusPrefix+target, a constant for the statuses there are.
func statusActionID(target string) string {
	switch target {
	case statusComplete:
		return ActionStatusPrefix + statusComplete
	case statusInProgress:
		return ActionStatusPrefix + statusInProgress
	case statusDeferred:
		return ActionStatusPrefix + statusDeferred
	case statusCancelled:
		return ActionStatusPrefix + statusCancelled
	case statusOpen:
		return ActionStatusPrefix + statusOpen
	}
	return ActionStatusPrefix + target
}

// transitionLabel is the label, in l, of the control that moves an action
// from status from to target, as a member reads it next to the row's
// status: a finished action is reopened, one in progress or deferred goes
// back to open (it was never closed). "Cancel" alone would read as closing
// the menu, hence "Mark cancelled".
func transitionLabel(l lang.Lang, from, target string) string {
	switch target {
	case statusComplete:
		return l.T("status.button.complete")
	case statusInProgress:
		return l.T("status.button.start")
	case statusDeferred:
		return l.T("status.button.defer")
	case statusCancelled:
		return l.T("status.button.cancel")
	}
	if from == statusComplete || from == statusCancelled {
		return l.T("status.button.reopen")
	}
	return l.T("status.button.back_to_open")
}

// changedLine is the row's line about a change: "Marked complete by @x
// <date>", in l. by and at are mrkdwn already (a mention, a date token).
func changedLine(l lang.Lang, status, by, at string) string {
	switch status {
	case statusComplete:
		return l.F("status.changed.complete", "who", by, "when", at)
	case statusInProgress:
		return l.F("status.changed.in_progress", "who", by, "when", at)
	case statusOpen:
		return l.F("status.changed.open", "who", by, "when", at)
	case statusCancelled:
		return l.F("status.changed.cancelled", "who", by, "when", at)
	case statusDeferred:
		return l.F("status.changed.deferred", "who", by, "when", at)
	case "":
		return l.F("status.changed.unknown", "who", by, "when", at)
	}
	return l.F("status.changed.other", "status", inline(status, rowStatusMax), "who", by, "when", at)
}

// plainStatus is statusWord without mrkdwn escaping.
func plainStatus(l lang.Lang, status string) string {
	switch status {
	case statusOpen, statusInProgress, statusComplete, statusCancelled, statusDeferred:
		return statusWord(l, status)
	}
	return oneLine(status)
}

// StatusDone is the sentence shown after a change to status, in l:
// ":white_check_mark: *title* marked complete." ("moved back to open" from
// a finished status or an unfinished one alike). title is mrkdwn, escaped
// by the caller.
func StatusDone(l lang.Lang, status, title string) string {
	if k, ok := doneKeys[status]; ok {
		return l.F(k, "title", title)
	}
	return l.F("status.done.other", "title", title, "status", Escape(status))
}

// StatusAlready is the sentence for a change to the status an action
// already has, in l: ":information_source: *title* is already complete."
func StatusAlready(l lang.Lang, status, title string) string {
	if k, ok := alreadyKeys[status]; ok {
		return l.F(k, "title", title)
	}
	return l.F("status.already.other", "title", title, "status", Escape(status))
}
