package blocks

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

// statusWord is how a status reads in a row; an unknown status is shown as
// the server sent it.
func statusWord(status string) string {
	switch status {
	case statusOpen:
		return "Open"
	case statusInProgress:
		return "In progress"
	case statusComplete:
		return "Complete"
	case statusCancelled:
		return "Cancelled"
	case statusDeferred:
		return "Deferred"
	}
	return inline(status, rowStatusMax)
}

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

// transitionLabel is the label of the control that moves an action from
// status from to target, as a member reads it next to the row's status:
// a finished action is reopened, one in progress or deferred goes back to
// open (it was never closed). "Cancel" alone would read as closing the
// menu, hence "Mark cancelled".
func transitionLabel(from, target string) string {
	switch target {
	case statusComplete:
		return "Complete"
	case statusInProgress:
		return "Start"
	case statusDeferred:
		return "Defer"
	case statusCancelled:
		return "Mark cancelled"
	}
	if from == statusComplete || from == statusCancelled {
		return "Reopen"
	}
	return "Back to open"
}

// changedVerb is how a change to status reads: "Marked complete by …".
func changedVerb(status string) string {
	switch status {
	case statusComplete:
		return "Marked complete"
	case statusInProgress:
		return "Started"
	case statusOpen:
		return "Moved back to open"
	case statusCancelled:
		return "Cancelled"
	case statusDeferred:
		return "Deferred"
	case "":
		return "Changed"
	}
	return "Marked " + inline(status, rowStatusMax)
}

// plainStatus is statusWord without mrkdwn escaping.
func plainStatus(status string) string {
	switch status {
	case statusOpen, statusInProgress, statusComplete, statusCancelled, statusDeferred:
		return statusWord(status)
	}
	return oneLine(status)
}

// StatusDone is the past tense shown after a change to status:
// "marked complete", "started", "moved back to open" (from a finished
// status or an unfinished one alike).
func StatusDone(status string) string {
	switch status {
	case statusComplete:
		return "marked complete"
	case statusInProgress:
		return "started"
	case statusDeferred:
		return "deferred"
	case statusCancelled:
		return "cancelled"
	case statusOpen:
		return "moved back to open"
	}
	return "set to " + status
}

// StatusAdjective is a status in a sentence: "is already in progress",
// "Actions from Finance (completed)".
func StatusAdjective(status string) string {
	switch status {
	case statusInProgress:
		return "in progress"
	case statusComplete:
		return "completed"
	}
	return status
}
