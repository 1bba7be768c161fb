package apiclient

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/valyala/fastjson"
)

// InspectOptions are the parameters of [Client.Inspect]. The zero value
// reads three pages of each list and writes nothing.
type InspectOptions struct {
	// Pages is how many pages of each list are read (default 3).
	Pages int
	// MinutesOf is how many of the meetings read have their minutes asked
	// for (default 10).
	MinutesOf int
	// WriteCheck exercises actions:write by setting one action's status to
	// the status it already has. Nothing changes, but the records service
	// sees (and may log) a write.
	WriteCheck bool
}

// Inspection is what [Client.Inspect] found: what an installer needs to
// know before going live, in a form easy to print line by line or as JSON.
type Inspection struct {
	// Reachable is false when no answer came at all (Error says why).
	Reachable bool `json:"reachable"`
	// KeyAccepted is false when the API key was refused (401).
	KeyAccepted bool `json:"key_accepted"`
	// Error is why the service was not reachable; empty when it was.
	Error string `json:"error,omitempty"`
	// Scopes lists actions:read, meetings:read and actions:write as
	// exercised.
	Scopes []ScopeCheck `json:"scopes"`
	// Endpoints has one report per endpoint read.
	Endpoints []EndpointReport `json:"endpoints"`
	// Counts are the records seen.
	Counts Counts `json:"counts"`
	// MinutesRule says whether GET /meetings/{id}/minutes kept to the
	// visible-minutes rule on the meetings tried.
	MinutesRule MinutesRule `json:"minutes_rule"`
	// FieldMap is the RECORDS_FIELD_MAP in force, in its own syntax.
	FieldMap string `json:"field_map,omitempty"`
}

// Scope check results.
const (
	ScopeOK         = "ok"          // exercised and accepted
	ScopeMissing    = "missing"     // 403: the key lacks it
	ScopeNotChecked = "not checked" // not exercised (actions:write without WriteCheck, or nothing to write to)
	ScopeFailed     = "failed"      // exercised, but the call failed for another reason (see Detail)
)

// ScopeCheck is one scope as exercised.
type ScopeCheck struct {
	Scope  string `json:"scope"`            // "actions:read", "meetings:read" or "actions:write"
	Result string `json:"result"`           // ScopeOK, ScopeMissing, ScopeNotChecked or ScopeFailed
	Detail string `json:"detail,omitempty"` // the error, or what was written
}

// EndpointReport is what the first pages of one endpoint showed.
type EndpointReport struct {
	Endpoint string `json:"endpoint"`        // "GET /actions"
	OK       bool   `json:"ok"`              // the endpoint answered in a form the client reads
	Error    string `json:"error,omitempty"` // why not, when OK is false
	// Envelope is where the records were: "array", "data", "value",
	// "_embedded.actions"...; "record" for a bare single record.
	Envelope string `json:"envelope,omitempty"`
	// Pagination is the scheme recognised (a Scheme constant).
	Pagination string `json:"pagination,omitempty"`
	PagesRead  int    `json:"pages_read,omitempty"`
	Records    int    `json:"records"` // records read and analysed
	// Total is the server's count of the whole list; -1 when it gave none.
	Total int `json:"total"`
	// Truncated says why the list could not be read to its end, other
	// than the pages limit of the inspection.
	Truncated string `json:"truncated,omitempty"`
	// Fields lists each field the bot reads: under which names it was
	// found, and in how many of the records.
	Fields []FieldReport `json:"fields"`
	// Unmapped lists members no field reads, with a sample value.
	Unmapped    []UnmappedField `json:"unmapped,omitempty"`
	DateFormats []string        `json:"date_formats,omitempty"` // Time constants
	IDTypes     []string        `json:"id_types,omitempty"`     // "string", "number"
}

// FieldReport is one field of a record as found.
type FieldReport struct {
	Field string `json:"field"` // "action.deadline"
	// FoundAs are the names it was read from, as the server spells them
	// ("dueDate", "meeting.id"); empty when it was in no record.
	FoundAs []string `json:"found_as,omitempty"`
	// FromFieldMap is true when RECORDS_FIELD_MAP's name supplied it.
	FromFieldMap bool `json:"from_field_map,omitempty"`
	Records      int  `json:"records"` // how many of the records read had it
}

// UnmappedField is a member of the records that no field reads.
type UnmappedField struct {
	Name    string `json:"name"`    // as the server spells it
	Sample  string `json:"sample"`  // the first value seen, as JSON, cut to 60 bytes
	Records int    `json:"records"` // how many of the records read had it
}

// Counts are the records the inspection saw.
type Counts struct {
	// ActionsByStatus counts actions per documented status: the server's
	// total when it gave one, else the actions listed.
	ActionsByStatus map[Status]int `json:"actions_by_status"`
	// ActionCountsExact is false when some status had more actions than
	// the pages read and the server gave no total.
	ActionCountsExact bool `json:"action_counts_exact"`
	// Meetings is the server's total of meetings, else those read.
	Meetings int `json:"meetings"`
	// NewestVisibleMinutes is the meeting with the newest approved or
	// published-draft minutes among those tried; empty when none.
	NewestVisibleMinutes string `json:"newest_visible_minutes,omitempty"`
	// NewestVisibleMinutesDate is their approval, publication or update
	// time, else the meeting's date.
	NewestVisibleMinutesDate time.Time `json:"newest_visible_minutes_date,omitzero"`
}

// MinutesRule is the check of the visible-minutes rule.
type MinutesRule struct {
	// Held is false when the service returned minutes whose status is
	// neither approved nor published_draft (the client refused to pass
	// them on).
	Held    bool `json:"held"`
	Tried   int  `json:"tried"`   // meetings whose minutes were asked for
	Visible int  `json:"visible"` // of those, how many had visible minutes
	// Violations lists the meetings whose hidden minutes were served.
	Violations []string `json:"violations,omitempty"`
}

// Inspect reads the first pages of every endpoint, read-only unless
// opts.WriteCheck, and reports what it recognised, for the installer's
// self-check (recordsbot doctor). A nil opts is the zero InspectOptions.
//
// Failures of single endpoints are reported in the Inspection, not as an
// error: a missing scope is a finding. The error is non-nil only when ctx
// ends first.
func (c *Client) Inspect(ctx context.Context, opts *InspectOptions) (*Inspection, error) {
	o := opts.withDefaults()
	in := &Inspection{Reachable: true, KeyAccepted: true, MinutesRule: MinutesRule{Held: true}, FieldMap: c.fieldMap.String()}
	in.Counts.ActionsByStatus = map[Status]int{}
	in.Counts.ActionCountsExact = true

	acts, list := c.inspectActions(ctx, in, o.Pages)
	in.Endpoints = append(in.Endpoints, acts)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if acts.OK {
		c.countActions(ctx, in, o.Pages)
	}

	mtgs, meetings := c.inspectMeetings(ctx, in, o.Pages)
	in.Endpoints = append(in.Endpoints, mtgs)
	if len(meetings) > 0 {
		in.Endpoints = append(in.Endpoints, c.inspectMeeting(ctx, meetings[0].ID))
		in.Endpoints = append(in.Endpoints, c.inspectMinutes(ctx, in, meetings, o.MinutesOf))
	}

	in.Scopes = append(in.Scopes, c.writeCheck(ctx, o, list))
	return in, ctx.Err()
}

// withDefaults is opts with the defaults filled in; opts may be nil.
func (opts *InspectOptions) withDefaults() InspectOptions {
	o := InspectOptions{Pages: 3, MinutesOf: 10}
	if opts != nil {
		o.WriteCheck = opts.WriteCheck
		if opts.Pages > 0 {
			o.Pages = opts.Pages
		}
		if opts.MinutesOf > 0 {
			o.MinutesOf = opts.MinutesOf
		}
	}
	return o
}

// note records on rep a failed call needing scope, and what the failure
// says about the set-up as a whole.
func (in *Inspection) note(rep *EndpointReport, scope string, err error) {
	rep.Error = err.Error()
	switch {
	case errors.Is(err, ErrUnauthorized):
		in.KeyAccepted = false
	case errors.Is(err, ErrUnavailable) && !in.anyOK():
		in.Reachable = false
		in.Error = err.Error()
	}
	in.setScope(scope, err)
}

// inspectActions reads up to pages pages of actions and analyses them.
// The list is nil when it could not be read.
func (c *Client) inspectActions(ctx context.Context, in *Inspection, pages int) (EndpointReport, *ActionList) {
	rep := EndpointReport{Endpoint: "GET /actions", Total: -1}
	list, info, err := c.listActions(ctx, actionsQuery{maxPages: pages, raw: true})
	if err != nil {
		in.note(&rep, scopeActionsRead, err)
		return rep, list
	}
	in.setScope(scopeActionsRead, nil)
	rep.OK, rep.Envelope, rep.Pagination, rep.PagesRead = true, info.envelope, info.scheme, info.pages
	rep.Records = len(list.Actions)
	if list.Total > 0 {
		rep.Total = list.Total
	}
	if list.Truncated && !info.capped {
		rep.Truncated = list.TruncatedReason
	}
	raws := make([][]byte, len(list.Actions))
	for i, a := range list.Actions {
		raws[i] = a.Raw
	}
	c.analyse(&rep, c.schema.action, raws, []int{actDeadline}, actID)
	return rep, list
}

// inspectMeetings reads up to pages pages of meetings, analyses them and
// counts them.
func (c *Client) inspectMeetings(ctx context.Context, in *Inspection, pages int) (EndpointReport, []Meeting) {
	rep := EndpointReport{Endpoint: "GET /meetings", Total: -1}
	meetings := c.readMeetingPages(ctx, in, &rep, pages)
	rep.Records = len(meetings)
	raws := make([][]byte, len(meetings))
	for i, m := range meetings {
		raws[i] = m.Raw
	}
	c.analyse(&rep, c.schema.meeting, raws, []int{mtgDate}, mtgID)
	in.Counts.Meetings = len(meetings)
	if rep.Total >= 0 {
		in.Counts.Meetings = rep.Total
	}
	return rep, meetings
}

// readMeetingPages follows the meetings list for up to pages pages,
// noting on rep what the pages showed; a failure ends the reading.
func (c *Client) readMeetingPages(ctx context.Context, in *Inspection, rep *EndpointReport, pages int) []Meeting {
	var meetings []Meeting
	var pageOpts ListMeetingsOptions
	for range pages {
		page, info, err := c.listMeetings(ctx, &pageOpts)
		if err != nil {
			in.note(rep, scopeMeetingsRead, err)
			break
		}
		in.setScope(scopeMeetingsRead, nil)
		if rep.PagesRead == 0 {
			rep.OK, rep.Envelope, rep.Pagination = true, info.envelope, info.scheme
			if page.Total > 0 {
				rep.Total = page.Total
			}
		}
		rep.PagesRead++
		meetings = append(meetings, page.Meetings...)
		if page.Truncated {
			rep.Truncated = page.TruncatedReason
		}
		if page.Next == "" {
			break
		}
		pageOpts.Next = page.Next
	}
	return meetings
}

// anyOK reports whether some call has succeeded, so the service is
// reachable whatever failed later.
func (in *Inspection) anyOK() bool {
	for _, s := range in.Scopes {
		if s.Result == ScopeOK {
			return true
		}
	}
	return false
}

// setScope records the outcome of a call needing scope; the first outcome
// of each scope counts.
func (in *Inspection) setScope(scope string, err error) {
	for _, s := range in.Scopes {
		if s.Scope == scope {
			return
		}
	}
	sc := ScopeCheck{Scope: scope, Result: ScopeOK}
	switch {
	case errors.Is(err, ErrForbidden):
		sc.Result, sc.Detail = ScopeMissing, err.Error()
	case err != nil:
		sc.Result, sc.Detail = ScopeFailed, err.Error()
	}
	in.Scopes = append(in.Scopes, sc)
}

// countActions counts the actions of each documented status.
func (c *Client) countActions(ctx context.Context, in *Inspection, pages int) {
	for _, st := range statuses {
		l, _, err := c.listActions(ctx, actionsQuery{status: st, maxPages: pages})
		if err != nil {
			in.Counts.ActionCountsExact = false
			continue
		}
		n := len(l.Actions)
		switch {
		case l.Total > 0:
			n = l.Total
		case l.Truncated:
			in.Counts.ActionCountsExact = false
		}
		in.Counts.ActionsByStatus[st] = n
	}
}

// inspectMeeting reads one meeting's detail.
func (c *Client) inspectMeeting(ctx context.Context, id string) EndpointReport {
	rep := EndpointReport{Endpoint: "GET /meetings/{id}", Envelope: "record", Total: -1}
	m, err := c.GetMeeting(ctx, id)
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	rep.OK, rep.Records = true, 1
	c.analyse(&rep, c.schema.meeting, [][]byte{m.Raw}, []int{mtgDate}, mtgID)
	return rep
}

// inspectMinutes asks for the minutes of up to n meetings, checking the
// visible-minutes rule and finding the newest visible minutes.
func (c *Client) inspectMinutes(ctx context.Context, in *Inspection, meetings []Meeting, n int) EndpointReport {
	rep := EndpointReport{Endpoint: "GET /meetings/{id}/minutes", Envelope: "record", Total: -1}
	var raws [][]byte
	for _, m := range meetings[:min(n, len(meetings))] {
		in.MinutesRule.Tried++
		mins, err := c.GetMinutes(ctx, m.ID)
		switch {
		case errors.Is(err, errHiddenMinutes):
			in.MinutesRule.Held = false
			in.MinutesRule.Violations = append(in.MinutesRule.Violations, m.ID)
			continue
		case errors.Is(err, ErrNotFound):
			continue
		case err != nil:
			rep.Error = err.Error()
			continue
		}
		in.MinutesRule.Visible++
		raws = append(raws, mins.Raw)
		date := mins.Date
		if date.IsZero() {
			date = m.Date
		}
		if in.Counts.NewestVisibleMinutes == "" || date.After(in.Counts.NewestVisibleMinutesDate) {
			in.Counts.NewestVisibleMinutes, in.Counts.NewestVisibleMinutesDate = m.ID, date
		}
	}
	rep.OK = rep.Error == ""
	rep.Records = len(raws)
	c.analyse(&rep, c.schema.minutes, raws, []int{minDate}, -1)
	return rep
}

// writeCheck sets the first action read to the status it has, when o
// asks (WriteCheck).
func (c *Client) writeCheck(ctx context.Context, o InspectOptions, list *ActionList) ScopeCheck {
	sc := ScopeCheck{Scope: scopeActionsWrite, Result: ScopeNotChecked}
	if !o.WriteCheck {
		sc.Detail = "not asked to write"
		return sc
	}
	var target *Action
	if list != nil {
		for i := range list.Actions {
			if list.Actions[i].Status.Valid() && list.Actions[i].ID != "" {
				target = &list.Actions[i]
				break
			}
		}
	}
	if target == nil {
		sc.Detail = "no action to write to"
		return sc
	}
	_, err := c.UpdateActionStatus(ctx, target.ID, target.Status)
	switch {
	case err == nil:
		sc.Result, sc.Detail = ScopeOK, "set action "+target.ID+" to its own status "+string(target.Status)
	case errors.Is(err, ErrForbidden):
		sc.Result, sc.Detail = ScopeMissing, err.Error()
	default:
		sc.Result, sc.Detail = ScopeFailed, err.Error()
	}
	return sc
}

// analyse fills rep's field, unmapped, date-format and id-type findings
// from the records raws of table t. dateFields are the fields holding
// times; idField is the id's field (-1 for none).
func (c *Client) analyse(rep *EndpointReport, t *table, raws [][]byte, dateFields []int, idField int) {
	type found struct {
		names   []string
		mapped  bool
		records int
	}
	fields := make([]found, len(t.fields))
	unmapped := map[string]*UnmappedField{}
	formats := map[string]bool{}
	idTypes := map[string]bool{}
	var p fastjson.Parser
	for _, raw := range raws {
		v, err := p.ParseBytes(raw)
		if err != nil {
			continue
		}
		o := object(v)
		if o == nil {
			continue
		}
		slots, names := explain(t, o, unmapped)
		for fi := range t.fields {
			for i := t.start[fi]; i < t.start[fi+1]; i++ {
				if slots[i] == nil {
					continue
				}
				f := &fields[fi]
				f.records++
				if !slices.Contains(f.names, names[i]) {
					f.names = append(f.names, names[i])
				}
				f.mapped = f.mapped || t.slots[i].mapped
				if slices.Contains(dateFields, fi) {
					_, _, format := parseTimeFormat(strBytes(slots[i]))
					formats[format] = true
				}
				if fi == idField {
					idTypes[slots[i].Type().String()] = true
				}
				break
			}
		}
	}
	for fi, f := range t.fields {
		rep.Fields = append(rep.Fields, FieldReport{Field: t.record + "." + f.name, FoundAs: fields[fi].names, FromFieldMap: fields[fi].mapped, Records: fields[fi].records})
	}
	for _, u := range unmapped {
		rep.Unmapped = append(rep.Unmapped, *u)
	}
	sort.Slice(rep.Unmapped, func(i, j int) bool { return rep.Unmapped[i].Name < rep.Unmapped[j].Name })
	rep.DateFormats = sortedKeys(formats)
	rep.IDTypes = sortedKeys(idTypes)
}

// structural are members of conventions, not fields of the record.
var structural = []string{"attributes", "relationships", "links", "type", "meta"}

// explain collects the slots of record o as decoding does, also returning
// the name each slot was found under as the server spells it, and adding
// members no slot reads to unmapped.
func explain(t *table, o *fastjson.Object, unmapped map[string]*UnmappedField) ([]*fastjson.Value, []string) {
	slots := make([]*fastjson.Value, len(t.slots))
	names := make([]string, len(t.slots))
	visitRecord(o, func(k []byte, v *fastjson.Value) {
		nk := normString(string(k))
		idx, ok := t.byKey[nk]
		if !ok {
			if !slices.Contains(structural, nk) && v.Type() != fastjson.TypeNull {
				u := unmapped[string(k)]
				if u == nil {
					sample := string(v.MarshalTo(nil))
					if len(sample) > 60 {
						sample = sample[:57] + "..."
					}
					u = &UnmappedField{Name: string(k), Sample: sample}
					unmapped[string(k)] = u
				}
				u.Records++
			}
			return
		}
		for _, i := range idx {
			val := v
			if p := t.slots[i].path; len(p) > 1 {
				val = memberPath(v, p[1:])
			}
			if slots[i] == nil && val != nil && val.Type() != fastjson.TypeNull {
				slots[i] = val
				names[i] = string(k)
				if p := t.slots[i].alias; strings.Contains(p, ".") {
					names[i] = string(k) + p[strings.IndexByte(p, '.'):]
				}
			}
		}
	})
	return slots, names
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
