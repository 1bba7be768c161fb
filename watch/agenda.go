package watch

import (
	"context"

	"github.com/recordsbot/recordsbot/apiclient"
)

// agendaRead is one meeting's record as a poll read it for its agenda.
type agendaRead struct {
	agenda []apiclient.AgendaItem
	err    error
}

// agenda is the agenda of meeting id from its own record (GET
// /meetings/{id}: a listing may leave the agenda out), read at most once
// a poll however many channels' briefs show it. A failed read is kept for
// the poll too: each brief then shows the listing's agenda.
func (p *poll) agenda(ctx context.Context, id string) ([]apiclient.AgendaItem, error) {
	if r, ok := p.agendas[id]; ok {
		return r.agenda, r.err
	}
	var r agendaRead
	full, err := p.deps.Minutes.Meeting(ctx, id)
	if err != nil {
		r.err = err
	} else {
		r.agenda = full.Agenda
	}
	if p.agendas == nil {
		p.agendas = map[string]agendaRead{}
	}
	p.agendas[id] = r
	return r.agenda, r.err
}
