package blocks

// MsgNotRecorded is what a person reads when their change could not be
// written to the audit trail (the database is down): it was not made.
const MsgNotRecorded = ":warning: I couldn't record this change in the audit trail (my database is unavailable right now), so I didn't make it: nothing was changed. Please try again in a few minutes."
