package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/internal/words"

	"github.com/recordsbot/recordsbot/apiclient"
)

// recordsDeadline bounds the whole inspection of the records service: a
// few pages of each list, some minutes, and the per-status counts.
const recordsDeadline = 60 * time.Second

// checkRecords inspects the records service (apiclient.Inspect) and turns
// its findings into checks.
func checkRecords(ctx context.Context, set Settings, opts Options, rep *Report) {
	if set.RecordsURL == "" || set.RecordsKey == "" {
		rep.add(secRecords, failed("RECORDS_API_URL and RECORDS_API_KEY must both be set; nothing was checked",
			"set RECORDS_API_URL to the service's base URL (ending in /api/v1) and RECORDS_API_KEY to its key"))
		return
	}
	if set.problem("RECORDS_FIELD_MAP") {
		rep.add(secRecords, failed("RECORDS_FIELD_MAP could not be read (see Configuration); nothing was checked", "fix RECORDS_FIELD_MAP; recordsbot help lists the fields it may name"))
		return
	}
	fm := set.FieldMap
	client, err := apiclient.NewClient(set.RecordsURL, set.RecordsKey,
		apiclient.WithUserAgent(userAgent(opts)),
		apiclient.WithRetry(1, 200*time.Millisecond, time.Second),
		apiclient.WithFieldMap(fm))
	if err != nil {
		rep.add(secRecords, failed("RECORDS_API_URL: "+err.Error(), "set RECORDS_API_URL to an http(s) URL ending in /api/v1"))
		return
	}
	ictx, cancel := context.WithTimeout(ctx, recordsDeadline)
	defer cancel()
	in, err := client.Inspect(ictx, &apiclient.InspectOptions{WriteCheck: opts.WriteCheck})
	if err != nil {
		rep.add(secRecords, failed(fmt.Sprintf("no complete answer within %s: %v", recordsDeadline, err),
			"check that the records service answers promptly from this host"))
		return
	}
	rep.Records = in
	base := redacted(set.RecordsURL)
	if !in.Reachable {
		rep.add(secRecords, failed("not reachable at "+base+": "+in.Error,
			"check RECORDS_API_URL and that this host can reach the service (DNS, firewall, proxy)"))
		return
	}
	rep.add(secRecords, ok("reachable at "+base))
	if !in.KeyAccepted {
		rep.add(secRecords, failed("the API key was refused (401)", "check RECORDS_API_KEY: it is wrong, expired or revoked"))
		return
	}
	rep.add(secRecords, ok("API key accepted"))
	for _, sc := range in.Scopes {
		rep.add(secRecords, scopeCheck(sc))
	}
	for _, e := range in.Endpoints {
		if c, show := endpointCheck(e, in, fm); show {
			rep.add(secRecords, c)
		}
	}
	if c, show := countsCheck(in); show {
		rep.add(secRecords, c)
	}
	rep.add(secRecords, minutesRuleCheck(in.MinutesRule))
	rep.add(secRecords, upcomingCheck(ictx, client, time.Now()))
}

// upcomingCheck says whether the records list meetings dated in the
// future (on their first page, newest first): the pre-meeting brief fires
// only for those, and whether a service lists them is not said in its API.
func upcomingCheck(ctx context.Context, client *apiclient.Client, now time.Time) check {
	mp, err := client.ListMeetings(ctx, nil)
	if err != nil {
		return skipped("upcoming meetings not checked: " + err.Error())
	}
	n := 0
	for _, m := range mp.Meetings {
		if m.Date.After(now) {
			n++
		}
	}
	if n == 0 {
		// Not a fault: many services list meetings only once held.
		return skipped("the records list no upcoming meetings: pre-meeting briefs (BRIEF_LEAD) fire only once they do")
	}
	return ok(fmt.Sprintf("the records list %s: pre-meeting briefs fire BRIEF_LEAD before them", words.Count(n, "upcoming meeting", "upcoming meetings")))
}

// scopeCheck is one scope of the key as exercised.
func scopeCheck(sc apiclient.ScopeCheck) check {
	switch sc.Result {
	case apiclient.ScopeOK:
		text := "scope " + sc.Scope
		if sc.Detail != "" {
			text += ": " + sc.Detail
		}
		return ok(text)
	case apiclient.ScopeMissing:
		return failed("scope "+sc.Scope+" missing: "+strings.TrimPrefix(sc.Detail, "records api: "),
			"ask the records service's administrator to give the key the "+sc.Scope+" scope (recordsbot needs actions:read, actions:write and meetings:read)")
	case apiclient.ScopeNotChecked:
		if sc.Scope == "actions:write" && sc.Detail == "not asked to write" {
			return skipped("scope actions:write not checked: run doctor --write-check to exercise it (it re-PUTs one action's current status; the service may log it)")
		}
		return skipped("scope " + sc.Scope + " not checked: " + sc.Detail)
	}
	// The endpoint's own line below reports why the call failed; one ✗
	// per problem.
	return skipped("scope " + sc.Scope + " not confirmed: the call needing it failed for another reason (below)")
}

// requiredFields are the fields without which the bot cannot show a
// record usefully; a list of records lacking one is a blocking failure.
// The others it shows when present.
var requiredFields = map[string]string{
	"action.id":     "the bot cannot change the actions",
	"action.title":  "the bot cannot show what the actions are",
	"action.status": "the bot cannot tell open actions from done ones",
	"meeting.id":    "the bot cannot open the meetings",
}

// advisoryFields are fields whose absence the bot survives, with what is
// lost.
var advisoryFields = map[string]string{
	"action.assignee": "nobody sees their own actions or gets reminders",
	"action.deadline": "no overdue flags and no reminders",
	"meeting.title":   "meetings are shown by id only",
	"meeting.date":    "meetings cannot be ordered or dated",
}

// endpointCheck is what one endpoint showed; show is false for endpoints
// whose only problem a scope line has already reported.
func endpointCheck(e apiclient.EndpointReport, in *apiclient.Inspection, fm apiclient.FieldMap) (check, bool) {
	if !e.OK {
		if strings.Contains(e.Error, "403") || strings.Contains(e.Error, "401") {
			return check{}, false
		}
		fix := "the records service answered in a form the client cannot read; see docs/records-client.md"
		if strings.Contains(e.Error, "no array under") {
			fix = "the list is wrapped in a member the client does not know (it reads data, items, results, value, the resource's name or _embedded); RECORDS_FIELD_MAP names fields, not envelopes, so report the service's answer as a recordsbot issue"
		}
		// The client's error repeats the endpoint the line starts with.
		msg := strings.TrimPrefix(e.Error, "records api: "+e.Endpoint+": ")
		return failed(e.Endpoint+": "+msg, fix), true
	}
	summary := e.Endpoint + ": "
	var parts []string
	if e.Envelope != "" {
		parts = append(parts, "envelope "+e.Envelope)
	}
	if e.Pagination != "" {
		parts = append(parts, "pagination "+e.Pagination)
	}
	if e.PagesRead > 0 {
		parts = append(parts, words.Count(e.PagesRead, "page", "pages")+" read")
	}
	records := words.Count(e.Records, "record", "records")
	if e.Total >= 0 {
		records += fmt.Sprintf(" of %d", e.Total)
	}
	parts = append(parts, records)
	summary += strings.Join(parts, ", ")

	var details []string
	var missingRequired, missingAdvisory []string
	for _, f := range e.Fields {
		switch {
		case len(f.FoundAs) > 0:
			line := fmt.Sprintf("%s ← %s (%d/%d)", f.Field, strings.Join(f.FoundAs, ", "), f.Records, e.Records)
			if f.FromFieldMap {
				line += " [RECORDS_FIELD_MAP]"
			}
			details = append(details, line)
		case e.Records == 0:
		case requiredFields[f.Field] != "":
			missingRequired = append(missingRequired, f.Field)
			details = append(details, f.Field+": not found")
		case advisoryFields[f.Field] != "":
			missingAdvisory = append(missingAdvisory, f.Field)
			details = append(details, f.Field+": not found")
		}
	}
	for _, u := range e.Unmapped {
		details = append(details, fmt.Sprintf("unmapped %s, e.g. %s (%d/%d)", u.Name, u.Sample, u.Records, e.Records))
	}
	if len(e.DateFormats) > 0 {
		details = append(details, "date formats: "+strings.Join(e.DateFormats, ", "))
	}
	if len(e.IDTypes) > 0 {
		details = append(details, "id types: "+strings.Join(e.IDTypes, ", "))
	}

	c := ok(summary, details...)
	missing := append(slices.Clone(missingRequired), missingAdvisory...)
	switch {
	case len(missingRequired) > 0:
		c = failed(summary+"; "+strings.Join(missingRequired, ", ")+" not found: "+requiredFields[missingRequired[0]],
			fieldMapFix(missing, e.Unmapped, fm))
	case len(missingAdvisory) > 0:
		c = advisory(summary+"; "+strings.Join(missingAdvisory, ", ")+" not found: "+advisoryFields[missingAdvisory[0]],
			fieldMapFix(missing, e.Unmapped, fm))
	case e.Truncated != "":
		c = advisory(summary+"; the list could not be read to its end: "+e.Truncated,
			"the bot will say \"showing N of M\" on such lists; see docs/records-client.md")
	}
	c.Details = details
	return c, true
}

// fieldHints are the words that make an unmapped member a likely source
// of a field, best first.
var fieldHints = map[string][]string{
	"id":       {"key", "uuid", "ref", "number"},
	"title":    {"subject", "heading", "label", "topic", "caption", "name", "description"},
	"status":   {"state", "stage", "progress"},
	"assignee": {"responsible", "assigned", "owner", "person", "who", "email", "user"},
	"deadline": {"target", "due", "deadline", "until", "end"},
	"date":     {"held", "date", "when", "time", "start", "on"},
}

// fieldMapFix says how to set RECORDS_FIELD_MAP for the missing fields,
// with an example built from the unmapped members seen: the current map
// plus, for each missing field, the unmapped member its name suggests.
func fieldMapFix(missing []string, unmapped []apiclient.UnmappedField, current apiclient.FieldMap) string {
	suggested := apiclient.FieldMap{}
	for k, v := range current {
		suggested[k] = v
	}
	used := map[string]bool{}
	var guessed []string
	for _, f := range missing {
		_, name, _ := strings.Cut(f, ".")
		if m := bestMember(fieldHints[name], unmapped, used); m != "" {
			suggested[f], used[m] = m, true
			guessed = append(guessed, f)
		}
	}
	if len(guessed) == 0 {
		var names []string
		for _, u := range unmapped {
			names = append(names, u.Name)
		}
		if len(names) == 0 {
			return "the records carry no member the client could read as " + strings.Join(missing, ", ") + "; set RECORDS_FIELD_MAP to its name, e.g. RECORDS_FIELD_MAP=" + missing[0] + "=<member>"
		}
		return "set RECORDS_FIELD_MAP to the members holding " + strings.Join(missing, ", ") + ", e.g. RECORDS_FIELD_MAP=" + missing[0] + "=" + names[0] + " (members seen: " + strings.Join(names, ", ") + ")"
	}
	return "set RECORDS_FIELD_MAP=" + suggested.String() + " (a guess from the unmapped members above; check it, then run doctor again)"
}

// bestMember is the unmapped member whose name contains the earliest of
// hints, skipping members already used.
func bestMember(hints []string, unmapped []apiclient.UnmappedField, used map[string]bool) string {
	for _, h := range hints {
		for _, u := range unmapped {
			norm := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(u.Name))
			if !used[u.Name] && strings.Contains(norm, h) {
				return u.Name
			}
		}
	}
	return ""
}

// countsCheck summarises the records seen.
func countsCheck(in *apiclient.Inspection) (check, bool) {
	var parts []string
	for _, st := range apiclient.Statuses() {
		if n, ok := in.Counts.ActionsByStatus[st]; ok {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if len(parts) == 0 && in.Counts.Meetings == 0 {
		return check{}, false
	}
	actions := "actions: " + strings.Join(parts, ", ")
	if len(parts) == 0 {
		actions = "actions: not counted"
	} else if !in.Counts.ActionCountsExact {
		actions += " (at least)"
	}
	text := fmt.Sprintf("%s; meetings: %d", actions, in.Counts.Meetings)
	if in.Counts.NewestVisibleMinutes != "" {
		text += "; newest visible minutes: meeting " + in.Counts.NewestVisibleMinutes
		if !in.Counts.NewestVisibleMinutesDate.IsZero() {
			text += " (" + in.Counts.NewestVisibleMinutesDate.Format("2006-01-02") + ")"
		}
	}
	return ok(text), true
}

// minutesRuleCheck reports whether the service kept hidden minutes hidden.
func minutesRuleCheck(r apiclient.MinutesRule) check {
	if r.Tried == 0 {
		return skipped("visible-minutes rule not checked: no meetings to ask minutes of")
	}
	if !r.Held {
		return advisory(fmt.Sprintf("visible-minutes rule broken: the service served unapproved minutes of meeting %s", strings.Join(r.Violations, ", ")),
			"the bot refuses to show them, but the key can read drafts: ask the records service's administrator why minutes that are neither approved nor published_draft reach it")
	}
	return ok(fmt.Sprintf("visible-minutes rule respected: %d of %d meetings tried have visible minutes", r.Visible, r.Tried))
}

// userAgent names doctor to the records service.
func userAgent(opts Options) string { return "recordsbot/" + opts.Version + " (doctor)" }
