package slacktest

import (
	"slices"
	"sync"
)

// Slack asks for a new block_id in each version of a message or view:
// "block_id should be unique for each message and each iteration of a
// message. If a message is updated, use a new block_id."
// (https://docs.slack.dev/reference/block-kit/blocks; @slack/types Block).
// Slack does not refuse an update that sends one again, but clients may
// keep the old block's state, so the Server notes it instead
// ([Server.BlockIDReuse]). A modal's inputs are meant to keep theirs:
// slackfake says which (kept).

// blockIDNotes are the block_ids updates sent again.
type blockIDNotes struct {
	mu    sync.Mutex
	notes []string
}

// revised notes each block_id of after, a new version, that before, the
// version it replaces, had too, but for those kept on purpose.
func (n *blockIDNotes) revised(where string, before, after, kept []string) {
	for _, id := range after {
		if slices.Contains(before, id) && !slices.Contains(kept, id) {
			n.mu.Lock()
			n.notes = append(n.notes, where+": block_id "+id)
			n.mu.Unlock()
		}
	}
}

// BlockIDReuse lists the block_ids that an update (chat.update, a
// response_url replace_original, views.publish, views.update) sent again
// in the new version of a message or view, each as "where: block_id id".
// A well-behaved app leaves it empty.
func (s *Server) BlockIDReuse() []string {
	s.blockIDs.mu.Lock()
	defer s.blockIDs.mu.Unlock()
	return slices.Clone(s.blockIDs.notes)
}

// ClearBlockIDReuse forgets what BlockIDReuse reported so far.
func (s *Server) ClearBlockIDReuse() {
	s.blockIDs.mu.Lock()
	defer s.blockIDs.mu.Unlock()
	s.blockIDs.notes = nil
}
