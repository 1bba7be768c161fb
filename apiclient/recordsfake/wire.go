package recordsfake

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// The wire forms of the records. They are the server's side of the
// contract, so every field name here is one a client may rely on.

type actionJSON struct {
	ID        string          `json:"id"`
	Title     string          `json:"title"`
	Status    string          `json:"status"`
	Assignee  *assigneeJSON   `json:"assignee,omitempty"`
	DueDate   string          `json:"due_date,omitempty"`
	Deadline  string          `json:"deadline,omitempty"`
	Meeting   *meetingRefJSON `json:"meeting,omitempty"`
	Committee string          `json:"committee,omitempty"`
	CreatedAt string          `json:"created_at,omitempty"`
}

type assigneeJSON struct {
	Email string `json:"email,omitempty"`
	Name  string `json:"name,omitempty"`
}

type meetingRefJSON struct {
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
}

type meetingJSON struct {
	ID        string `json:"id"`
	Reference string `json:"reference,omitempty"`
	Title     string `json:"title"`
	Committee string `json:"committee,omitempty"`
	Date      string `json:"date,omitempty"`
	Location  string `json:"location,omitempty"`
	// The marks some records services add (Meeting.Status...).
	Status       string `json:"status,omitempty"`
	Visibility   string `json:"visibility,omitempty"`
	Confidential bool   `json:"confidential,omitempty"`
	Public       *bool  `json:"public,omitempty"`
}

type meetingDetailJSON struct {
	meetingJSON
	Agenda []agendaItemJSON `json:"agenda"`
}

type agendaItemJSON struct {
	Number      int    `json:"number"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
}

type minutesJSON struct {
	Status      string `json:"status"`
	Body        string `json:"body,omitempty"`
	HTML        string `json:"html,omitempty"`
	URL         string `json:"url,omitempty"`
	PublishedAt string `json:"published_at,omitempty"`
}

type errorJSON struct {
	Error   string `json:"error"`
	Message string `json:"message,omitempty"`
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

func renderAction(row actionRow) actionJSON {
	out := actionJSON{
		ID:        row.ID,
		Title:     row.Title,
		Status:    row.Status,
		CreatedAt: formatTime(row.CreatedAt),
	}
	if row.AssigneeEmail != "" || row.AssigneeName != "" {
		out.Assignee = &assigneeJSON{Email: row.AssigneeEmail, Name: row.AssigneeName}
	}
	switch {
	case row.Deadline.IsZero():
	case row.DateOnly:
		out.DueDate = row.Deadline.Format(time.DateOnly)
	default:
		out.Deadline = formatTime(row.Deadline)
	}
	if row.MeetingID != "" {
		out.Meeting = &meetingRefJSON{ID: row.MeetingID, Title: row.meetingTitle}
		out.Committee = row.committee
	}
	return out
}

func renderMeeting(m Meeting) meetingJSON {
	return meetingJSON{
		ID:        m.ID,
		Reference: m.Reference,
		Title:     m.Title,
		Committee: m.Committee,
		Date:      formatTime(m.Date),
		Location:  m.Location,
		Status:    m.Status, Visibility: m.Visibility, Confidential: m.Confidential, Public: m.Public,
	}
}

func renderMeetingDetail(m Meeting) meetingDetailJSON {
	out := meetingDetailJSON{meetingJSON: renderMeeting(m), Agenda: []agendaItemJSON{}}
	for _, it := range m.Agenda {
		out.Agenda = append(out.Agenda, agendaItemJSON(it))
	}
	return out
}

func renderMinutes(m Minutes) minutesJSON {
	out := minutesJSON{Status: m.Status, URL: m.URL, PublishedAt: formatTime(m.UpdatedAt)}
	if m.HTML {
		out.HTML = m.Body
	} else {
		out.Body = m.Body
	}
	return out
}

// writeJSON answers status with v as JSON. HTML escaping is off so that
// the body carries "<", ">" and "&" as they are, as many real servers do;
// clients must cope with both spellings.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only a programming error in this package can get here: every
		// value written is a plain struct of strings and numbers.
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes()) // the client hung up; nothing to do
}

// writeError answers status with {"error": code, "message": message}, code
// being the status text in snake case ("not_found", "too_many_requests").
func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, errorJSON{Error: errorCode(status), Message: message})
}

func errorCode(status int) string {
	text := http.StatusText(status)
	if text == "" {
		return "error"
	}
	return strings.ToLower(strings.NewReplacer(" ", "_", "-", "_", "'", "").Replace(text))
}
