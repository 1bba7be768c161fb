package store

import (
	"errors"
	"fmt"
)

// ErrBadURL is returned by Open and CheckURL for a DATABASE_URL that is
// neither sqlite:… nor postgres://…; the error's message names the variable
// and the accepted forms.
var ErrBadURL = errors.New("bad DATABASE_URL")

// ErrUnavailable marks errors that mean the store is down (cannot connect,
// connection lost, database or file gone, closed, locked for too long, or
// no answer before the caller's deadline) rather than that a request was
// wrong. A cancelled context is not an outage and does not match. Callers answer the person with "the
// store is down" and log the wrapped detail.
var ErrUnavailable = errors.New("store unavailable")

// ErrSchemaTooNew is matched (errors.Is) by the *SchemaTooNewError that Open
// returns when the database was migrated by a newer recordsbot.
var ErrSchemaTooNew = errors.New("database schema is newer than this recordsbot")

// ErrNotOwner is returned by Done and Release when the key is not held by
// the given owner: its lease ran out and someone else claimed it, it was
// released, or it was never claimed.
var ErrNotOwner = errors.New("not the owner of this claim")

// ErrInvalid is wrapped by errors for values the store refuses, such as a
// reminder time that is not HH:MM; the error's message is fit to show.
var ErrInvalid = errors.New("invalid value")

// IsUnavailable reports whether err means the store is down.
func IsUnavailable(err error) bool { return errors.Is(err, ErrUnavailable) }

// SchemaTooNewError is the one-line start-up failure for a database whose
// schema is newer than this binary knows.
type SchemaTooNewError struct {
	Have int // the database's schema version
	Know int // the newest version this binary has
}

// Error is the one line start-up prints.
func (e *SchemaTooNewError) Error() string {
	return fmt.Sprintf("database schema is version %d, newer than this recordsbot (knows up to %d): upgrade recordsbot or restore a backup", e.Have, e.Know)
}

// Is makes errors.Is(err, ErrSchemaTooNew) true.
func (e *SchemaTooNewError) Is(target error) bool { return target == ErrSchemaTooNew }

// unavailableError keeps the driver's error for the log while matching
// ErrUnavailable.
type unavailableError struct{ err error }

func (e *unavailableError) Error() string        { return "store unavailable: " + e.err.Error() }
func (e *unavailableError) Unwrap() error        { return e.err }
func (e *unavailableError) Is(target error) bool { return target == ErrUnavailable }

func unavailable(err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) {
		return err
	}
	return &unavailableError{err}
}
